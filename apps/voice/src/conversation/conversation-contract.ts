import type { TurnLatency, VoiceCallContext } from '@vap/contracts';
import type { ChatModel } from '@vap/llm';
import type { MediaStreamCommand, MediaStreamEvent } from '@vap/media';
import type { SttProvider } from '../providers/stt-provider';
import type { TtsProvider, TtsVoice } from '../providers/tts-provider';
import type { CallReporter } from './call-reporter';

/** The carrier side of one media stream, in carrier-neutral commands (see @vap/media mediaStreamCodec). */
export interface MediaTransport {
  send(command: MediaStreamCommand): void;
}

/** Latency parts of one agent turn, observed into the voice service's Prometheus histograms. */
export interface TurnLatencySink {
  observe(latency: TurnLatency): void;
}

export interface ConversationOptions {
  context: VoiceCallContext;
  /** The agent's voice from the catalog (provider voice id, model, speed, volume, language). */
  voice: TtsVoice;
  stt: SttProvider;
  tts: TtsProvider;
  llm: ChatModel;
  reporter: CallReporter;
  transport: MediaTransport;
  /** MEDIA_TIME_SCALE: media time runs this many times faster than wall time (1 in production). */
  timeScale: number;
  latency?: TurnLatencySink;
}

export interface ConversationResult {
  /** Null when the carrier ended the stream (the caller hung up) without the agent deciding anything. */
  endCallReason: string | null;
  /** Seconds of media the stream carried (media clock). */
  mediaSeconds: number;
  /** Two-channel 16-bit 8 kHz WAV (left: caller, right: agent) when the agent records, else null. */
  recording: { wav: Buffer; durationSeconds: number } | null;
}

/**
 * One live call's conversation. The session feeds it every event the carrier sends, in order (`started`
 * first); it talks back through the transport and the reporter, and settles `done` once the conversation
 * is over: the agent ended or transferred the call, a provider failed, or the stream stopped.
 */
export interface LiveConversation {
  onEvent(event: MediaStreamEvent): void;
  /** The stream closed without a stop (socket closed, carrier gone). */
  onClosed(): void;
  /** Ends the conversation from outside (drain deadline, shutdown): a farewell if there is time, then done. */
  end(reason: string): void;
  readonly done: Promise<ConversationResult>;
}
