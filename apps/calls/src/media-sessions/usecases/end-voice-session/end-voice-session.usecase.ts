import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  ANSWERING_MODEL_PROVIDERS,
  AppError,
  ModelPaidByEntry,
  SPEECH_PROVIDERS,
  VoiceEndedRequest,
} from '@vap/messages';
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
   * when the call has none, the cloud speech providers the platform paid for, and whose key answered each model. A retried report changes
   * nothing: the first recording and reason stand, and the providers are a set (every stream's report adds
   * to it: a call whose stream moved to another voice replica ran on both replicas' providers).
   */
  async execute(request: VoiceEndedRequest, partnerId: string | null): Promise<void> {
    const reason = request.endCallReason === null ? null : checkedReason(request.endCallReason);
    const platformPaid = checkedPlatformSpeech(request.platformPaidSpeech);
    const modelPaidBy = checkedModelPaidBy(request.modelPaidBy);
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
      // Whose key answered each model, a set likewise (a call's model_usage takes paid_by from it).
      if (modelPaidBy.length) {
        await em.query(
          `UPDATE ${tableOf(em, Call)}
              SET model_paid_by = (SELECT COALESCE(jsonb_agg(DISTINCT m ORDER BY m), '[]'::jsonb)
                                     FROM jsonb_array_elements(model_paid_by || $2::jsonb) AS m)
            WHERE id = $1`,
          [call.id, JSON.stringify(modelPaidBy)],
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

/** Most models one report may name: an agent's model and fallbacks, times the agents a call is handed to. */
export const MODEL_PAID_BY_MAX = 64;
/** Longest model id a report names (as transcript lines keep them). */
const MAX_MODEL_ID_CHARS = 128;

/**
 * Whose key answered each model a report names: a model provider that writes lines, a model id, and account,
 * platform or null; each once. A replica older than per-agent models leaves the field out.
 */
function checkedModelPaidBy(value: unknown): ModelPaidByEntry[] {
  if (value === undefined || value === null) return [];
  const providers = ANSWERING_MODEL_PROVIDERS as readonly string[];
  const valid = (e: unknown): e is ModelPaidByEntry => {
    const entry = e as Record<string, unknown> | null;
    return (
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.provider === 'string' &&
      providers.includes(entry.provider) &&
      typeof entry.model === 'string' &&
      entry.model.length > 0 &&
      entry.model.length <= MAX_MODEL_ID_CHARS &&
      (entry.paidBy === 'account' || entry.paidBy === 'platform' || entry.paidBy === null)
    );
  };
  if (!Array.isArray(value) || value.length > MODEL_PAID_BY_MAX || !value.every(valid)) {
    throw AppError.validation([
      {
        field: 'modelPaidBy',
        message:
          `modelPaidBy must list at most ${MODEL_PAID_BY_MAX} models, each {provider, model, paidBy}: provider ` +
          `one of ${providers.join(', ')}, model an id of 1 to ${MAX_MODEL_ID_CHARS} characters, paidBy ` +
          'account, platform or null',
      },
    ]);
  }
  const seen = new Map<string, ModelPaidByEntry>();
  for (const e of value) {
    const entry = { provider: e.provider, model: e.model, paidBy: e.paidBy };
    seen.set(JSON.stringify(entry), entry);
  }
  return [...seen.values()];
}
