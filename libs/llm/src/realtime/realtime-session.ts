// A speech-to-speech session (OpenAI Realtime, Gemini Live): one socket per call that hears the caller's audio and
// answers with the agent's audio, its own transcripts of both sides, and tool calls. The voice service's realtime
// driver runs a call on it instead of the transcriber, the model and the voice. Audio crosses this interface as
// PCM16 mono at the media plane's rate; each client resamples to and from what its provider takes and gives.
import { SPEECH_TO_SPEECH_PROVIDERS, type SpeechToSpeechProvider } from '@vap/messages';
import type { ChatUsage, ToolCall, ToolSpec } from '../chat-model';
import type { LlmError } from '../llm-error';

/** Providers that run speech-to-speech sessions, by their model provider name. */
export const REALTIME_PROVIDERS = SPEECH_TO_SPEECH_PROVIDERS;
export type RealtimeProviderName = SpeechToSpeechProvider;

/**
 * A line of the conversation the session did not hear or say itself (what was said before it opened, the
 * platform's own lines, answers that came late), as it keeps it. `system`: a note for the model, not words said.
 */
export interface RealtimeContextLine {
  role: 'user' | 'assistant' | 'system';
  text: string;
}

export interface RealtimeSessionConfig {
  /**
   * The provider's API base as the model plan gives it (the platform's setting, or the public API): OpenAI's
   * `https://api.openai.com/v1`, Google's `https://generativelanguage.googleapis.com` (a `/v1beta` path is taken
   * as the same). http(s) becomes ws(s).
   */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The agent's system prompt. */
  instructions: string;
  /** The provider's voice (the agent's model.voice); the provider's default when absent. */
  voice?: string;
  tools: readonly ToolSpec[];
  temperature?: number;
  /** Longest reply in tokens (the agent's model.max_tokens). */
  maxTokens?: number;
  /** PCM16 sample rate of the audio sent and received (the media plane's). */
  sampleRate: number;
  /**
   * Longest silence of the provider, wall ms: to open the session, and whenever an answer is due (the caller
   * stopped speaking, tool results went back) until the reply is complete. Past it the session fails.
   */
  timeoutMs: number;
  /** What was said before, in order, put into the session's conversation when it opens. */
  context?: readonly RealtimeContextLine[];
}

/** How one response of the model ended. */
export type RealtimeResponseStatus = 'completed' | 'cancelled' | 'incomplete' | 'failed';

/** What a session tells, in the order it happened. */
export type RealtimeEvent =
  /** The provider heard the caller start speaking (its voice activity detection): barge-in. */
  | { type: 'caller.speech_started' }
  /** The provider judged the caller's turn over: a reply is due. */
  | { type: 'caller.speech_stopped' }
  /** The provider's transcription of one caller utterance, complete. */
  | { type: 'caller.transcript'; text: string }
  /** A response of the model's began. */
  | { type: 'response.started'; responseId: string }
  /** Agent audio of the response, PCM16 at the session's sample rate. */
  | { type: 'response.audio'; responseId: string; pcm: Int16Array }
  /** More of the agent's words, as the provider transcribes its own speech. */
  | { type: 'response.transcript'; responseId: string; delta: string }
  /**
   * The response is over: its words (the provider's transcript), the tool calls it made (complete, in order; the
   * model waits for their results), and its tokens when the provider reported them.
   */
  | {
      type: 'response.done';
      responseId: string;
      status: RealtimeResponseStatus;
      transcript: string;
      toolCalls: ToolCall[];
      usage: ChatUsage | null;
    }
  /** The session failed (refused, dropped, an error, or silent past the deadline): nothing more comes. */
  | { type: 'failed'; error: LlmError };

/** One tool call's result, as the model gets it. */
export interface RealtimeToolResult {
  callId: string;
  name: string;
  output: string;
}

export interface RealtimeSession {
  readonly provider: RealtimeProviderName;
  readonly model: string;
  /** Caller audio, PCM16 at the session's sample rate, as it arrives (every frame, silence included). */
  sendAudio(pcm: Int16Array): void;
  /**
   * The caller spoke over the agent: the response under way is cancelled, and the agent's last audio is cut
   * to the `playedMs` the caller heard of it, so the model's conversation holds only what was said.
   */
  interrupt(playedMs: number): void;
  /** Results of the last response's tool calls; with `respond` the model answers with them. */
  sendToolResults(results: readonly RealtimeToolResult[], respond: boolean): void;
  /** Lines said outside the model's replies (the platform's own), put into its conversation without a reply. */
  addContext(lines: readonly RealtimeContextLine[]): void;
  /** The model takes a turn by itself (an answer that came late): it replies where the conversation is. */
  respond(): void;
  /** New instructions and tools for the rest of the call (a handoff), where the provider allows it mid-session. */
  update(instructions: string, tools: readonly ToolSpec[]): boolean;
  /** Ends the session: the socket closes, every timer stops, nothing more is told. Idempotent. */
  close(): void;
}

/** Opens a session: resolves once the provider took its configuration; rejects with LlmError within timeoutMs. */
export type RealtimeSessionOpener = (
  config: RealtimeSessionConfig,
  onEvent: (event: RealtimeEvent) => void,
) => Promise<RealtimeSession>;
