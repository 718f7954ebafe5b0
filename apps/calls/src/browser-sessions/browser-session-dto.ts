import { BrowserSessionDto } from '@vap/api';
import { BrowserSessionStatus, CallStatus } from '@vap/messages';
import { toCallSessionDto } from '../calls/call-dto';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { BrowserSession } from './entities/browser-session.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A session's public status, read from its call row. */
export function browserStatusOf(status: CallStatus, expired: boolean): BrowserSessionStatus {
  if (status === 'pending' || status === 'ringing') return 'pending';
  if (status === 'in_progress') return 'active';
  if (status === 'completed') return 'completed';
  return expired ? 'expired' : 'failed';
}

/** The call statuses a public status stands for (the list filter). */
export function callStatusesOf(status: BrowserSessionStatus): { statuses: CallStatus[]; expired?: boolean } {
  switch (status) {
    case 'pending':
      return { statuses: ['pending', 'ringing'] };
    case 'active':
      return { statuses: ['in_progress'] };
    case 'completed':
      return { statuses: ['completed'] };
    case 'expired':
      return { statuses: ['failed', 'no_answer', 'busy', 'canceled'], expired: true };
    default:
      return { statuses: ['failed', 'no_answer', 'busy', 'canceled'], expired: false };
  }
}

export function toBrowserSessionDto(
  call: Call,
  session: CallSession,
  browser: BrowserSession,
  recordingUrl: string | null,
): BrowserSessionDto {
  const sessionDto = toCallSessionDto(call, session, recordingUrl);
  return {
    id: call.id,
    agent_id: call.agentId,
    status: browserStatusOf(call.status, browser.expired),
    end_reason: call.endCallReason,
    created_at: call.createdAt.toISOString(),
    started_at: iso(call.startedAt),
    ended_at: iso(call.endedAt),
    expires_at: browser.expiresAt.toISOString(),
    duration_secs: call.durationSeconds,
    credits_used: sessionDto.credits_used,
    variables: call.variables ?? {},
    metadata: browser.metadata ?? {},
    customer_id: browser.customerId,
    allowed_origins: browser.allowedOrigins,
    session: sessionDto,
  };
}
