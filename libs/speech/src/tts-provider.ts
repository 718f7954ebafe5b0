import type { TtsProviderName } from '@vap/messages';

/** The agent's voice as the catalog describes it, passed into every synthesis request. */
export interface TtsVoice {
  providerVoiceId: string;
  model: string;
  speed: number;
  volume: number;
  /** BCP-47-ish language of the voice or the agent's first spoken language, e.g. en-IN. */
  language: string;
}

/**
 * How to say a word (an entry of the agent's dictionaries): `alias` is text spoken instead (SSML `sub`, or a
 * plain substitution where the provider takes no markup); `ipa` a phonetic spelling (SSML `phoneme`) for
 * providers that take one, else the alias (or the word) is spoken.
 */
export interface Pronunciation {
  word: string;
  alias?: string;
  ipa?: string;
}

export interface TtsRequest {
  text: string;
  voice: TtsVoice;
  pronunciations?: readonly Pronunciation[];
}

export interface TtsProvider {
  readonly name: TtsProviderName;
  /**
   * Streams the spoken text as PCM16 mono at 8 kHz, in chunks of any size, as soon as the provider has
   * them. Throws when the provider fails or times out; stops when the signal aborts (barge-in).
   */
  synthesize(request: TtsRequest, signal?: AbortSignal): AsyncIterable<Int16Array>;
}

export const TTS_PROVIDER = Symbol('TTS_PROVIDER');
