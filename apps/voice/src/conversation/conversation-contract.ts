import type { Clock } from '@vap/runtime';
import type {
  AgentSnapshot,
  ModelUsageEntry,
  TransferOutcome,
  TurnLatency,
  VoiceCallContext,
} from '@vap/messages';
import type {
  ClockSource,
  MediaStreamCommand,
  MediaStreamEvent,
  MediaStreamNotice,
  PacingObserver,
} from '@vap/media';
import type { BlobWriter } from '@vap/storage';
import type { SttProvider } from '@vap/speech';
import type { TtsProvider, TtsVoice } from '@vap/speech';
import type { CallPlatform } from './call-platform';
import type { DtmfRoute } from './dtmf/send-dtmf';
import type { AgentModel } from './model-round';
import type { ProviderFailure } from './provider-failure';

/** The carrier side of one media stream, in carrier-neutral commands (see @vap/media mediaStreamCodec). */
export interface MediaTransport {
  send(command: MediaStreamCommand): void;
  /**
   * What a client that shows the call may want beyond the audio: the user's interim words, transcript lines as
   * reported, the agent speaking (a line's first frame to its end), tools running. Optional: carriers' streams
   * have no use for it.
   */
  notify?(notice: MediaStreamNotice): void;
}

/** Latency parts of one agent turn, observed into the voice service's Prometheus histograms. */
/** What turn-taking decided, for the replica's metrics. */
export type TurnTakingEvent =
  | 'barge_in'
  | 'backchannel'
  | 'held'
  | 'false_barge_in_recovered'
  | 'early_reply_used'
  | 'early_reply_discarded';

export interface TurnLatencySink {
  observe(latency: TurnLatency): void;
}

/** How evenly the agent's audio left for the carrier over a call. */
export interface TurnTakingSink {
  observe(event: TurnTakingEvent): void;
}

export interface PacingStats {
  framesSent: number;
  silenceFramesSent: number;
  /** Ticks with nothing to send while a sentence was queued (a gap the caller hears). */
  underruns: number;
  /** Timer firings more than a frame late (slots skipped rather than burst). */
  stalls: number;
  /** Send-time error percentiles over the recent window, wall ms. */
  jitterP50Ms: number;
  jitterP99Ms: number;
}

export interface ConversationOptions {
  context: VoiceCallContext;
  /** The agent's voice from the catalog (provider voice id, model, speed, volume, language). */
  voice: TtsVoice;
  /**
   * The providers of each kind in the order the settings list them: one that fails mid-call hands over to the
   * next (the utterance, sentence or model round in flight is asked again of it), and the call stays there.
   */
  stt: readonly SttProvider[];
  tts: readonly TtsProvider[];
  /**
   * The caller's utterance was recognised in `language` (a spoken_languages code), by a transcriber that detects
   * it: the voice answering in that language takes over (the prompt already asks the model to answer in it).
   */
  onCallerLanguage?: (language: string) => void;
  /** The agent's models (its own, then its fallbacks), or the deployment's default chain. */
  llm: readonly AgentModel[];
  /**
   * The models of the agent a handoff gives the call to (its own plan, or the deployment's default chain when it
   * chose none). Rejects when they cannot be had: the call stays on the models it has. Absent: a handoff keeps
   * the models.
   */
  modelsFor?: (agent: AgentSnapshot) => Promise<readonly AgentModel[]>;
  platform: CallPlatform;
  transport: MediaTransport;
  /** MEDIA_TIME_SCALE: media time runs this many times faster than wall time (1 in production). */
  timeScale: number;
  /** What media time is read from (the service's clock; the wall clock when absent). */
  clock?: Clock;
  /**
   * Timers of the agent's outbound pacing; default the replica's shared pacing clock. A spec that drives media
   * time with a ManualClock paces on it too.
   */
  pacingClock?: ClockSource;
  latency?: TurnLatencySink;
  /** Sees each turn-taking decision (barge-ins, backchannels, holds, recoveries, early replies). */
  turnTaking?: TurnTakingSink;
  /** Sees every outbound frame's send-time error and every underrun (the replica's pacing metrics). */
  pacing?: PacingObserver;
  /**
   * Wall ms a provider may take to answer (STT final text, the model's next delta, the next TTS chunk) before it
   * counts as failed; default DEFAULT_PROVIDER_TIMEOUT_MS.
   */
  providerTimeoutMs?: number;
  /** Media ms after which a caller utterance is cut and transcribed (MEDIA_MAX_UTTERANCE_MS); default MAX_UTTERANCE_MS. */
  maxUtteranceMs?: number;
  /**
   * How the agent's send_dtmf keys reach the call: through the carrier's REST API (the platform's sendDigits), or
   * in-band as tones in the agent's audio. Default in_band.
   */
  dtmfRoute?: DtmfRoute;
  /** `failure` handed the call over to the next provider of its kind, `next` (for the log and metrics). */
  onProviderFallback?: (failure: ProviderFailure, next: string) => void;
  /** Errors the conversation survives (a transcript line the calls service did not take), for the log. */
  onError?: (error: unknown, context: string) => void;
  /**
   * enable_recording: where the call's recording is written as the call runs (a blob writer at the calls
   * service's key). Without it the call is not recorded.
   */
  openRecording?: () => BlobWriter;
  /** The recording could not be stored (the call goes on without it). */
  onRecordingLost?: (error: Error) => void;
}

export interface ConversationResult {
  /** Null when the carrier ended the stream (the caller hung up) without the agent deciding anything. */
  endCallReason: string | null;
  /** Seconds of media the stream carried (media clock). */
  mediaSeconds: number;
  /**
   * The two-channel 16-bit 8 kHz WAV (left: caller, right: agent) stored by openRecording's writer, when the agent
   * records and the store took it; else null.
   */
  recording: { durationSeconds: number } | null;
  /** Outbound pacing over the call (frames, underruns, jitter), for metrics and the benchmark. */
  pacing?: PacingStats;
  /**
   * The call's model use: per model (and whose key) that wrote at least one round, its rounds and the tokens its
   * provider reported. Optional: a conversation that runs no model (a consult stream) has none.
   */
  modelUsage?: ModelUsageEntry[];
}

/**
 * One live call's conversation. The session feeds it every event the carrier sends, in order (`started`
 * first); it talks back through the transport and the platform, and settles `done` once the conversation
 * is over: the agent ended or transferred the call, a provider failed, or the stream stopped.
 */
export interface LiveConversation {
  onEvent(event: MediaStreamEvent): void;
  /**
   * The stream closed without a stop (socket closed, carrier gone). With `cutReason` the platform cut it (a
   * stream that broke a bound): the call is hung up through the carrier and ends with that reason, unless the
   * conversation had already decided its own.
   */
  onClosed(cutReason?: string): void;
  /**
   * Ends the conversation from outside (drain deadline, the balance guard): a farewell if there is time, then
   * the hang-up with `reason`. False when the call was already ending by itself (that end goes on).
   */
  end(reason: string): boolean;
  /**
   * The call has ended elsewhere (a terminal status): stops now, with no farewell and no hang-up. Every
   * provider request is aborted, every timer stopped and nothing more is sent; the agent line playing is
   * cut to what was played (as on a hang-up) and, with the lines said before, reported, and `done` settles
   * with the reason the conversation had decided, if any. False once the conversation has settled.
   */
  terminate(): boolean;
  /**
   * The carrier's machine detection answered after the stream opened. A machine answer to an agent with
   * voicemail detection (voicemailDetected) leaves the voicemail message and hangs up, as an answer known at the
   * start does; true when it does. Anything else, or a call already ending, changes nothing.
   */
  answeredBy(answeredBy: string): boolean;
  /**
   * How the call's warm transfer ended, as the calls service settled it. True when a transfer of the agent's was
   * waiting for it; the agent then lets the call go (bridged) or takes the caller off hold. Optional: a consult
   * stream has no transfer of its own.
   */
  transferOutcome?(outcome: TransferOutcome): boolean;
  readonly done: Promise<ConversationResult>;
}

/** Whether the call leaves the agent's voicemail message and hangs up: a machine answered, and the agent detects it. */
export function voicemailDetected(
  agent: Pick<AgentSnapshot, 'voicemailDetectionEnabled'>,
  answeredBy: string | null,
): boolean {
  return agent.voicemailDetectionEnabled && !!answeredBy?.startsWith('machine');
}
