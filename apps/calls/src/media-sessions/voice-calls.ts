import { DataSource } from 'typeorm';
import { AppError, isUuid } from '@vap/messages';
import { Call } from '../calls/entities/call.entity';

/**
 * The call a voice command names. The voice service learns the partner only from calls.voice.attach, so
 * commands may come without one; one that names a partner must name the call's own (else, as for any
 * other account's call, 404).
 */
export async function findVoiceCall(
  dataSource: DataSource,
  callId: unknown,
  partnerId: string | null,
): Promise<Call> {
  const call = isUuid(callId)
    ? await dataSource.getRepository(Call).findOne({ where: { id: callId } })
    : null;
  if (!call || (partnerId && partnerId !== call.partnerId)) throw AppError.notFound('Call');
  return call;
}

const REASON_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** end_call_reason values are snake_case words (agent_ended_call, stt_provider_failed, ...). */
export function checkedReason(reason: unknown): string {
  if (typeof reason !== 'string' || !REASON_PATTERN.test(reason)) {
    throw AppError.validation([{ field: 'reason', message: 'reason must be a snake_case word' }]);
  }
  return reason;
}
