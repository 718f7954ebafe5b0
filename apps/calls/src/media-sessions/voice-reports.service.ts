import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  AppError,
  CALL_VARIABLES_MAX_BYTES,
  ErrorCode,
  LLM_PROVIDERS,
  RecordedTurnLatency,
  SPEECH_PROVIDERS,
  STT_PROVIDERS,
  TranscriptEntry,
  TTS_PROVIDERS,
  TurnLatency,
  TurnProviders,
  TOOL_CALLS_PER_CALL_MAX,
  ToolCallEntry,
  VoiceEndedRequest,
  VoiceToolCallRequest,
  VoiceTranscriptRequest,
} from '@vap/messages';
import { isTerminalStatus, TERMINAL_CALL_STATUSES } from '../calls/call-status-machine';
import { tableOf } from '@vap/persistence';
import { CallTransports } from '../carriers/call-transport';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { wakePostCall } from '../work-queue/post-call-jobs';
import { recordingKey } from '../recording/recording-store';
import { toolCallEntry } from './tool-call-entry';
import { TranscriptService } from './transcript.service';
import { checkedReason } from './voice-call-control.service';
import { findVoiceCall } from './voice-calls';

/**
 * How far past a call's answered time (the carrier's whole seconds) a line may start and still have been
 * said on it: the carrier's rounding, and the frames still in flight when the call ended.
 */
const END_SLACK_MS = 1000;

/** The latency parts every report carries. */
const LATENCY_PARTS: readonly (keyof RecordedTurnLatency)[] = [
  'stt_final_ms',
  'llm_first_token_ms',
  'tts_first_byte_ms',
  'first_frame_out_ms',
  'voice_to_voice_ms',
];

/**
 * Latency parts kept when a report carries them: a voice replica older than the part (during a rollout) leaves it
 * out, and its line is kept without it, as lines recorded before the part was measured are.
 */
const OPTIONAL_LATENCY_PARTS: readonly (keyof TurnLatency)[] = ['endpointing_ms'];

/**
 * What the voice service reports of a conversation, kept by the owner of calls: the transcript line by
 * line (timed on the call's media clock, agent turns with their latency parts) and, when the stream
 * closes, the recording and why the conversation ended. The carrier's callbacks still end and bill the call.
 */
@Injectable()
export class VoiceReports {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transcript: TranscriptService,
    private readonly transports: CallTransports,
  ) {}

  /** Appends one line said on the call; its time is the session's start plus the media clock's atMs. */
  async line(request: VoiceTranscriptRequest, partnerId: string | null): Promise<TranscriptEntry> {
    if (request.role !== 'user' && request.role !== 'bot') {
      throw AppError.validation([{ field: 'role', message: 'role must be user or bot' }]);
    }
    if (typeof request.content !== 'string') {
      throw AppError.validation([{ field: 'content', message: 'content must be a string' }]);
    }
    const atMs = nonNegative(request.atMs, 'atMs');
    const callSeconds = nonNegative(request.callSeconds, 'callSeconds');
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    if (saidAfterEnd(call, atMs)) {
      throw new AppError(ErrorCode.INVALID_STATE, 'The call has ended; a line said after it is not kept');
    }
    const start =
      (await this.transcript.sessionStart(call.id)) ?? call.startedAt ?? new Date(Date.now() - atMs);
    return this.transcript.append(call.id, request.role, request.content, callSeconds, {
      at: new Date(start.getTime() + atMs),
      latency: request.latency ? checkedLatency(request.latency) : undefined,
      providers: request.providers ? checkedProviders(request.providers) : undefined,
      interrupted: request.interrupted === true,
      once: lineOnStream(request),
    });
  }

  /**
   * Appends one tool invocation to the session (at most TOOL_CALLS_PER_CALL_MAX; a repeat of one already
   * recorded on its stream changes nothing) and merges the variables it set into the call's, unless that would
   * take them past CALL_VARIABLES_MAX_BYTES. An invocation reported after the call ended is still kept: its
   * answer may come with the hang-up.
   */
  async toolCall(request: VoiceToolCallRequest, partnerId: string | null): Promise<ToolCallEntry> {
    const once = lineOnStream(request);
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    const atMs = nonNegative(request.atMs, 'atMs');
    const start =
      (await this.transcript.sessionStart(call.id)) ?? call.startedAt ?? new Date(Date.now() - atMs);
    const entry = toolCallEntry(request, start);
    await this.dataSource.transaction(async (em) => {
      // The call row first (as every writer of calls and sessions), then the session's.
      const [row] = (await em.query(`SELECT variables FROM ${tableOf(em, Call)} WHERE id = $1 FOR UPDATE`, [
        call.id,
      ])) as { variables: Record<string, unknown> | null }[];
      const recorded = (await em.query(
        `UPDATE ${tableOf(em, CallSession)}
            SET tool_calls = tool_calls || $2::jsonb,
                tool_call_marks = CASE WHEN $3::text IS NULL THEN tool_call_marks
                                       ELSE tool_call_marks || jsonb_build_object($3::text, $4::int + 1) END
          WHERE call_id = $1
            AND jsonb_array_length(tool_calls) < $5
            AND ($3::text IS NULL OR COALESCE((tool_call_marks ->> $3::text)::int, 0) <= $4::int)
          RETURNING call_id`,
        [
          call.id,
          JSON.stringify([entry]),
          once?.streamId ?? null,
          once?.seq ?? null,
          TOOL_CALLS_PER_CALL_MAX,
        ],
      )) as [unknown[], number];
      if (recorded[1] === 0 || Object.keys(entry.variables).length === 0) return;
      const merged = { ...(row?.variables ?? {}), ...entry.variables };
      if (Buffer.byteLength(JSON.stringify(merged)) > CALL_VARIABLES_MAX_BYTES) return;
      await em.query(`UPDATE ${tableOf(em, Call)} SET variables = $2::jsonb WHERE id = $1`, [
        call.id,
        JSON.stringify(merged),
      ]);
    });
    return entry;
  }

  /**
   * The stream closed: the conversation's recording (the call's own recording object only), its end reason
   * when the call has none, and the cloud speech providers the platform paid for. A retried report changes
   * nothing: the first recording and reason stand, and the providers are a set (every stream's report adds
   * to it: a call whose stream moved to another voice replica ran on both replicas' providers).
   */
  async ended(request: VoiceEndedRequest, partnerId: string | null): Promise<void> {
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

/** A stream id names a voice session's stream: key-safe characters, as ids are. */
const STREAM_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Where a line (or tool call) stands on its stream, when the voice service says (both or neither). */
function lineOnStream(
  request: Pick<VoiceTranscriptRequest, 'streamId' | 'seq'>,
): { streamId: string; seq: number } | undefined {
  if (request.streamId === undefined && request.seq === undefined) return undefined;
  if (typeof request.streamId !== 'string' || !STREAM_ID.test(request.streamId)) {
    throw AppError.validation([{ field: 'streamId', message: 'streamId must be an id, given with seq' }]);
  }
  if (
    typeof request.seq !== 'number' ||
    !Number.isInteger(request.seq) ||
    request.seq < 0 ||
    request.seq > 2 ** 31 - 2
  ) {
    throw AppError.validation([{ field: 'seq', message: 'seq must be a whole number of at least 0' }]);
  }
  return { streamId: request.streamId, seq: request.seq };
}

/**
 * A line of an ended call that started after the call's end by the media clock (which counts from the stream's
 * start, inside the answered time): the session kept running past the call. A line said before the end but
 * reported after it (the one cut by the hang-up) is still kept.
 */
function saidAfterEnd(call: Call, atMs: number): boolean {
  return isTerminalStatus(call.status) && atMs > (call.durationSeconds ?? 0) * 1000 + END_SLACK_MS;
}

function nonNegative(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw AppError.validation([{ field, message: `${field} must be a number of at least 0` }]);
  }
  return value;
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

/** Only the documented parts, as whole milliseconds. */
function checkedLatency(latency: TurnLatency): RecordedTurnLatency {
  const given = OPTIONAL_LATENCY_PARTS.filter((part) => latency[part] !== undefined);
  return Object.fromEntries(
    [...given, ...LATENCY_PARTS].map((part) => [
      part,
      Math.round(nonNegative(latency[part], `latency.${part}`)),
    ]),
  ) as unknown as RecordedTurnLatency;
}

const PROVIDER_NAMES: Readonly<Record<keyof TurnProviders, readonly string[]>> = {
  stt: STT_PROVIDERS,
  llm: LLM_PROVIDERS,
  tts: TTS_PROVIDERS,
};

/** Only the documented parts, each one of its documented names. */
function checkedProviders(providers: TurnProviders): TurnProviders {
  return Object.fromEntries(
    (Object.keys(PROVIDER_NAMES) as (keyof TurnProviders)[]).map((part) => {
      const name = (providers as unknown as Record<string, unknown>)[part];
      if (typeof name !== 'string' || !PROVIDER_NAMES[part].includes(name)) {
        throw AppError.validation([
          {
            field: `providers.${part}`,
            message: `providers.${part} must be one of ${PROVIDER_NAMES[part].join(', ')}`,
          },
        ]);
      }
      return [part, name];
    }),
  ) as unknown as TurnProviders;
}
