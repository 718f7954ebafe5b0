// Speech-to-speech sessions: OpenAI Realtime and Gemini Live behind one RealtimeSession interface.
import type { RealtimeEvent, RealtimeSession, RealtimeSessionConfig } from './realtime-session';
import { REALTIME_PROVIDERS, type RealtimeProviderName } from './realtime-session';
import { openGeminiLive } from './gemini-live';
import { openOpenAiRealtime } from './openai-realtime';

export * from './realtime-session';
export { pcm16FromBase64, pcm16ToBase64 } from './realtime-audio';
export {
  OpenAiRealtimeSession,
  openOpenAiRealtime,
  openAiRealtimeUrl,
  OPENAI_REALTIME_SAMPLE_RATE,
  OPENAI_REALTIME_TRANSCRIPTION_MODEL,
} from './openai-realtime';
export {
  GeminiLiveSession,
  openGeminiLive,
  geminiLiveUrl,
  geminiSchema,
  GEMINI_LIVE_INPUT_RATE,
  GEMINI_LIVE_OUTPUT_RATE,
  GEMINI_LIVE_VOICES,
} from './gemini-live';

/** Whether a model provider runs speech-to-speech sessions. */
export function isRealtimeProvider(provider: string): provider is RealtimeProviderName {
  return (REALTIME_PROVIDERS as readonly string[]).includes(provider);
}

/** Opens a speech-to-speech session with the provider's client; rejects with LlmError within config.timeoutMs. */
export function openRealtimeSession(
  provider: RealtimeProviderName,
  config: RealtimeSessionConfig,
  onEvent: (event: RealtimeEvent) => void,
): Promise<RealtimeSession> {
  return provider === 'openai' ? openOpenAiRealtime(config, onEvent) : openGeminiLive(config, onEvent);
}
