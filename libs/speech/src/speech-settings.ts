/** The speech provider settings, as the voice app's config class declares them (it passes itself). */
export interface SpeechSettings {
  /** One provider, or a list to fall back along (`deepgram,openai`); see providerListProblem. */
  STT_PROVIDER: string;
  STT_BASE_URL?: string;
  STT_API_KEY?: string;
  STT_MODEL?: string;
  /** The second network provider of STT_PROVIDER's list. */
  STT_FALLBACK_BASE_URL?: string;
  STT_FALLBACK_API_KEY?: string;
  STT_FALLBACK_MODEL?: string;
  TTS_PROVIDER: string;
  TTS_BASE_URL?: string;
  TTS_API_KEY?: string;
  TTS_MODEL?: string;
  /** Deadline of one provider request (to the first byte for streamed synthesis), in ms. */
  PROVIDER_TIMEOUT_MS: number;
  /** Local speech (`local`): the Python that has Debian's pocketsphinx module; see defaultPythonPath. */
  LOCAL_SPEECH_PYTHON?: string;
  /** Local speech: the espeak-ng program. */
  LOCAL_SPEECH_ESPEAK?: string;
  /** Local speech: recogniser processes of the replica (default one per CPU, at most 16). */
  LOCAL_STT_WORKERS?: number;
}

/** Speech engines that run on the replica itself and need no key or URL: the signal engine and local speech. */
export const KEYLESS_SPEECH_PROVIDERS: readonly string[] = ['offline', 'local'];

/** A provider list's name that needs a base URL and key (a cloud provider), not a keyless engine. */
export function isNetworkSpeechProvider(name: string, known: readonly string[]): boolean {
  return !KEYLESS_SPEECH_PROVIDERS.includes(name) && known.includes(name);
}

/** The names of a provider list setting, in order (`deepgram, openai` -> deepgram, openai). */
export function providerNames(value: string | undefined): string[] {
  return (value ?? '').split(',').map((name) => name.trim());
}

/**
 * What is wrong with a provider list setting, or undefined when it is good: known names, each once, and
 * `offline` only last (it never fails, so nothing after it would ever be asked).
 */
export function providerListProblem(value: string | undefined, known: readonly string[]): string | undefined {
  const names = providerNames(value);
  const choices = `${known.slice(0, -1).join(', ')} or ${known[known.length - 1]}`;
  if (names.some((name) => !known.includes(name))) {
    return `must be ${choices}, or a comma-separated list of them to fall back along (e.g. openai,offline)`;
  }
  if (new Set(names).size !== names.length) return 'names a provider twice';
  if (names.indexOf('offline') >= 0 && names.indexOf('offline') !== names.length - 1) {
    return 'lists offline before another provider: offline never fails, so put it last';
  }
  return undefined;
}

/** What a network provider needs from the settings, checked at creation. */
export interface NetworkProviderConfig {
  baseUrl: string;
  apiKey: string;
  model?: string;
  timeoutMs: number;
  /** Providers whose keys belong to a region (Azure Speech: `centralindia`); the base URL already names it. */
  region?: string;
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
