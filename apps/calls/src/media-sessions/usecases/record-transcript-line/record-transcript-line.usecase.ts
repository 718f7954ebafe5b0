import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  AppError,
  ErrorCode,
  ANSWERING_MODEL_PROVIDERS,
  RecordedTurnLatency,
  SPEECH_TO_SPEECH_PROVIDERS,
  STT_PROVIDERS,
  TranscriptEntry,
  TTS_PROVIDERS,
  TurnLatency,
  TurnModelUsage,
  TurnProviders,
  VoiceTranscriptRequest,
} from '@vap/messages';
import { isTerminalStatus } from '../../../calls/call-status-machine';
import { Call } from '../../../calls/entities/call.entity';
import { TranscriptService } from '../../transcript.service';
import { findVoiceCall } from '../../voice-calls';
import { lineOnStream, nonNegative } from '../../voice-report-fields';

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
 * calls.voice.transcript: a line said on the call, kept by the owner of calls in the session's transcript, timed
 * on the call's media clock (agent turns with their latency parts and providers).
 */
@Injectable()
export class RecordTranscriptLine {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transcript: TranscriptService,
  ) {}

  /** Appends one line said on the call; its time is the session's start plus the media clock's atMs. */
  async execute(request: VoiceTranscriptRequest, partnerId: string | null): Promise<TranscriptEntry> {
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
      usage: request.usage !== undefined ? checkedUsage(request.usage) : undefined,
      interrupted: request.interrupted === true,
      once: lineOnStream(request),
    });
  }
}

/**
 * A line of an ended call that started after the call's end by the media clock (which counts from the stream's
 * start, inside the answered time): the session kept running past the call. A line said before the end but
 * reported after it (the one cut by the hang-up) is still kept.
 */
function saidAfterEnd(call: Call, atMs: number): boolean {
  return isTerminalStatus(call.status) && atMs > (call.durationSeconds ?? 0) * 1000 + END_SLACK_MS;
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

/** A speech-to-speech model's line names its provider as what heard and spoke it. */
const PROVIDER_NAMES: Readonly<Record<'stt' | 'llm' | 'tts', readonly string[]>> = {
  stt: [...new Set([...STT_PROVIDERS, ...SPEECH_TO_SPEECH_PROVIDERS])],
  llm: ANSWERING_MODEL_PROVIDERS,
  tts: [...new Set([...TTS_PROVIDERS, ...SPEECH_TO_SPEECH_PROVIDERS])],
};

/** Longest model id a line keeps (providers' ids are far shorter; a longer one is a broken report). */
const MAX_MODEL_ID_CHARS = 128;

/** Only the documented parts, each one of its documented names. */
function checkedProviders(providers: TurnProviders): TurnProviders {
  const checked = Object.fromEntries(
    (Object.keys(PROVIDER_NAMES) as (keyof typeof PROVIDER_NAMES)[]).map((part) => {
      const name = (providers as unknown as Record<string, unknown>)[part];
      // A line the platform said itself (the intro) was written by no model.
      if (part === 'llm' && name === null) return [part, null];
      if (typeof name !== 'string' || !PROVIDER_NAMES[part].includes(name)) {
        throw AppError.validation([
          {
            field: `providers.${part}`,
            message:
              `providers.${part} must be one of ${PROVIDER_NAMES[part].join(', ')}` +
              (part === 'llm' ? ', or null' : ''),
          },
        ]);
      }
      return [part, name];
    }),
  ) as unknown as TurnProviders;
  const model = (providers as unknown as Record<string, unknown>).llm_model;
  // Lines from a replica older than llm_model carry none.
  if (model === undefined) return checked;
  if (model === null) return { ...checked, llm_model: null };
  if (typeof model !== 'string' || model.length === 0 || model.length > MAX_MODEL_ID_CHARS) {
    throw AppError.validation([
      {
        field: 'providers.llm_model',
        message: `providers.llm_model must be a model id of 1 to ${MAX_MODEL_ID_CHARS} characters, or null`,
      },
    ]);
  }
  checked.llm_model = checked.llm === null ? null : model;
  return checked;
}

/**
 * Most tokens a line may say its rounds took, each way: far past any model's context window times the rounds a
 * turn may take; a larger count is a broken report, not a reply.
 */
export const MAX_LINE_TOKENS = 100_000_000;

/** A line's token counts: whole numbers from 0 to MAX_LINE_TOKENS, nothing else kept. */
function checkedUsage(usage: TurnModelUsage): TurnModelUsage {
  if (typeof usage !== 'object' || usage === null) {
    throw AppError.validation([
      { field: 'usage', message: 'usage must be an object with input_tokens and output_tokens' },
    ]);
  }
  const count = (part: keyof TurnModelUsage): number => {
    const value = (usage as unknown as Record<string, unknown>)[part];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_LINE_TOKENS) {
      throw AppError.validation([
        {
          field: `usage.${part}`,
          message: `usage.${part} must be a whole number from 0 to ${MAX_LINE_TOKENS}`,
        },
      ]);
    }
    return value;
  };
  return { input_tokens: count('input_tokens'), output_tokens: count('output_tokens') };
}
