/** The agent's voice as the catalog describes it, passed into every synthesis request. */
export interface TtsVoice {
  providerVoiceId: string;
  model: string;
  speed: number;
  volume: number;
  /** BCP-47-ish language of the voice or the agent's first spoken language, e.g. en-IN. */
  language: string;
}

export interface TtsRequest {
  text: string;
  voice: TtsVoice;
}

export interface TtsProvider {
  readonly name: 'offline' | 'openai';
  /**
   * Streams the spoken text as PCM16 mono at 8 kHz, in chunks of any size, as soon as the provider has
   * them. Throws when the provider fails or times out; stops when the signal aborts (barge-in).
   */
  synthesize(request: TtsRequest, signal?: AbortSignal): AsyncIterable<Int16Array>;
}

export const TTS_PROVIDER = Symbol('TTS_PROVIDER');
