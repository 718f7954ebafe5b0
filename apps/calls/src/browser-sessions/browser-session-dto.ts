import { BrowserSessionDto, BrowserSessionRefusalDto } from '@vap/api';
import {
  BROWSER_REFUSAL_REASONS,
  BrowserRefusalReason,
  BrowserSessionStatus,
  CallStatus,
} from '@vap/messages';
import { toCallSessionDto } from '../calls/call-dto';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { BrowserSession } from '../carriers/browser/entities/browser-session.entity';
import { RecordingStore } from '../recording/recording-store';

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

/** What a refusal means and what to do about it, in words for the person reading the session. */
export function refusalMessage(reason: BrowserRefusalReason, origin: string | null): string {
  switch (reason) {
    case 'token_expired':
      return 'The connect_url was used after its token expired; create the session when the user asks to talk, and connect at once';
    case 'token_used':
      return 'The connect_url had opened the session already; a connect_url opens one connection, so create a new session to talk again';
    case 'origin_not_allowed':
      return origin
        ? `A page on ${origin} tried to connect, and that origin is not in the session's allowed_origins; add it when you create sessions`
        : "A client that sent no Origin tried to connect; only pages on the session's allowed_origins may";
    case 'account_restricted':
      return 'The account may not run sessions now (suspended or not yet approved)';
    case 'capacity':
      return 'The voice service had no room for the session at that moment; connect again shortly';
    case 'session_ended':
      return 'The session is over; create a new session to talk again';
  }
}

function lastRefusalOf(browser: BrowserSession): BrowserSessionRefusalDto | null {
  const reason = BROWSER_REFUSAL_REASONS.find((r) => r === browser.lastRefusalReason);
  if (!reason || !browser.lastRefusalAt) return null;
  return {
    reason,
    message: refusalMessage(reason, browser.lastRefusalOrigin),
    origin: browser.lastRefusalOrigin,
    at: browser.lastRefusalAt.toISOString(),
  };
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
    last_refusal: lastRefusalOf(browser),
    session: sessionDto,
  };
}

/** The session's recording, signed for the reader, when its agent records and the recording is stored. */
export async function recordingUrlOf(
  recordings: RecordingStore,
  call: Call,
  session: CallSession,
): Promise<string | null> {
  if (!call.agentSettings.enableRecording || !session.recordingKey) return null;
  return (await recordings.signedUrl(session.recordingKey, call.id)).url;
}
