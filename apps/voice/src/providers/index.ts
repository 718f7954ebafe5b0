// Speech providers chosen by settings. The engines land separately; until then creating them fails.
import type { SttProvider } from './stt-provider';
import type { TtsProvider } from './tts-provider';

export * from './stt-provider';
export * from './tts-provider';

/** The settings the providers read (the voice app's config class passes itself). */
export interface SpeechSettings {
  STT_PROVIDER: 'offline' | 'openai' | 'deepgram';
  STT_BASE_URL?: string;
  STT_API_KEY?: string;
  STT_MODEL?: string;
  TTS_PROVIDER: 'offline' | 'openai';
  TTS_BASE_URL?: string;
  TTS_API_KEY?: string;
  TTS_MODEL?: string;
  PROVIDER_TIMEOUT_MS: number;
}

export function createSpeechProviders(settings: SpeechSettings): { stt: SttProvider; tts: TtsProvider } {
  void settings;
  throw new Error('speech providers not built');
}
