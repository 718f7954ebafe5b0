import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, SPEECH_PROVIDERS, VoiceEndedRequest } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { TERMINAL_CALL_STATUSES } from '../../../calls/call-status-machine';
import { Call } from '../../../calls/entities/call.entity';
import { CallSession } from '../../../calls/entities/call-session.entity';
import { CallTransports } from '../../../carriers/call-transport';
import { recordingKey } from '../../../recording/recording-store';
import { wakePostCall } from '../../../work-queue/post-call-jobs';
import { checkedReason, findVoiceCall } from '../../voice-calls';
import { nonNegative } from '../../voice-report-fields';

/**
 * calls.voice.ended: the voice service's report of a conversation whose stream closed. The carrier's callbacks
 * still end and bill the call; a call with no carrier ends here.
 */
@Injectable()
export class EndVoiceSession {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transports: CallTransports,
  ) {}

  /**
   * The stream closed: the conversation's recording (the call's own recording object only), its end reason
   * when the call has none, and the cloud speech providers the platform paid for. A retried report changes
   * nothing: the first recording and reason stand, and the providers are a set (every stream's report adds
   * to it: a call whose stream moved to another voice replica ran on both replicas' providers).
   */
  async execute(request: VoiceEndedRequest, partnerId: string | null): Promise<void> {
    const reason = request.endCallReason === null ? null : checkedReason(request.endCallReason);
    const platformPaid = checkedPlatformSpeech(request.platformPaidSpeech);
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    const recording = request.recording;
    if (recording && recording.storageKey !== recordingKey(call.partnerId, call.id)) {
      throw AppError.validation([
        { field: 'recording.storageKey', message: "a call's recording is stored under its own key" },
      ]);
    }
    await this.dataSource.transaction(async (em) => {
      // The call row first, like the carrier's progress path, so the two never wait on each other's rows.
      await em.query(`SELECT id FROM ${tableOf(em, Call)} WHERE id = $1 FOR UPDATE`, [call.id]);
      // When it ended: the carrier's final status should follow shortly (else CarrierSilenceCheck asks).
      await em.query(
        `UPDATE ${tableOf(em, CallSession)}
            SET media_stream = 'ended', media_stream_ended_at = COALESCE(media_stream_ended_at, now())
          WHERE call_id = $1`,
        [call.id],
      );
      // Kept before the post-call job wakes: session.completed, which carries the charge to the gateway's
      // ledger, names them.
      if (platformPaid.length) {
        await em.query(
          `UPDATE ${tableOf(em, Call)}
              SET platform_speech_providers =
                    ARRAY(SELECT DISTINCT p FROM unnest(platform_speech_providers || $2::text[]) AS p ORDER BY p)
            WHERE id = $1`,
          [call.id, platformPaid],
        );
      }
      // A post-call job waiting for this report runs now rather than at its next retry.
      await wakePostCall(em, call.id);
      if (recording) {
        await em.query(
          `UPDATE ${tableOf(em, CallSession)}
              SET recording_key = $2, recording_duration_secs = $3
            WHERE call_id = $1 AND recording_key IS NULL`,
          [
            call.id,
            recording.storageKey,
            Math.round(nonNegative(recording.durationSeconds, 'durationSeconds')),
          ],
        );
      }
      if (reason) {
        // A live call keeps the reason until the carrier's final callback ends it (progress copies
        // end_requested_reason); an ended call gets it at once when it has none.
        await em.query(
          `UPDATE ${tableOf(em, Call)}
              SET end_call_reason = CASE WHEN status = ANY($3::text[]) THEN COALESCE(end_call_reason, $2)
                                         ELSE end_call_reason END,
                  end_requested_reason = COALESCE(end_requested_reason, $2)
            WHERE id = $1`,
          [call.id, reason, TERMINAL_CALL_STATUSES],
        );
      }
    });
    // A call with no carrier ends with its stream: no carrier's final callback follows.
    await this.transports.directOf(call.provider)?.endNow(call.id, reason);
  }
}

/**
 * The platform-paid providers a report names, each a cloud speech provider, at most once each. A voice replica
 * older than per-account keys leaves the field out: nothing was paid that it knows of.
 */
function checkedPlatformSpeech(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const names = SPEECH_PROVIDERS as readonly string[];
  if (
    !Array.isArray(value) ||
    value.length > names.length ||
    value.some((name) => typeof name !== 'string' || !names.includes(name))
  ) {
    throw AppError.validation([
      {
        field: 'platformPaidSpeech',
        message: `platformPaidSpeech must list speech providers, each one of ${names.join(', ')}`,
      },
    ]);
  }
  return [...new Set(value as string[])].sort();
}
