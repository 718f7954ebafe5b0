/** The speech provider settings, as the voice app's config class declares them (it passes itself). */
export interface SpeechSettings {
  STT_PROVIDER: 'offline' | 'openai' | 'deepgram';
  STT_BASE_URL?: string;
  STT_API_KEY?: string;
  STT_MODEL?: string;
  TTS_PROVIDER: 'offline' | 'openai';
  TTS_BASE_URL?: string;
  TTS_API_KEY?: string;
  TTS_MODEL?: string;
  /** Deadline of one provider request (to the first byte for streamed synthesis), in ms. */
  PROVIDER_TIMEOUT_MS: number;
}

/** What a network provider needs from the settings, checked at creation. */
export interface NetworkProviderConfig {
  baseUrl: string;
  apiKey: string;
  model?: string;
  timeoutMs: number;
}

/**
 * ISO 639-1 language hint for recognition from the agent's spoken languages (catalog codes): the first one,
 * with code-mixed Hinglish recognised as Hindi. Undefined when the agent lists none (provider auto-detects).
 */
export function recognitionLanguage(languages: readonly string[]): string | undefined {
  const first = languages[0]?.toLowerCase();
  if (!first) return undefined;
  if (first === 'hinglish') return 'hi';
  return first.split(/[-_]/)[0];
}
