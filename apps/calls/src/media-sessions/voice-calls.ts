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
