import type { KeyCheck } from '@vap/llm';
import type { SpeechProviderName, SpokenLanguage } from '@vap/messages';
import type { NetworkProviderConfig } from './speech-settings';
import type { SttProvider } from './stt-provider';
import type { TtsProvider } from './tts-provider';

export type { KeyCheck } from '@vap/llm';

/** A key to check: the credential and where the provider's API is. */
export type KeyCheckRequest = Pick<NetworkProviderConfig, 'apiKey' | 'baseUrl' | 'region' | 'timeoutMs'>;

export interface TtsCapabilities {
  create(config: NetworkProviderConfig): TtsProvider;
  /** First audio goes out as the provider's first bytes arrive (no whole-sentence buffering). */
  streaming: boolean;
  /** How dictionaries' pronunciations reach it: SSML phoneme/sub, plain text substitution of aliases. */
  pronunciations: 'ssml' | 'alias';
  /** spoken_languages codes its voices speak. */
  languages: readonly SpokenLanguage[];
  /** The model a voice uses when the catalog names none. */
  defaultModel: string;
}

export interface SttCapabilities {
  create(config: NetworkProviderConfig): SttProvider;
  /** Interim results while the caller speaks (a live socket), not a request per utterance. */
  streaming: boolean;
  /** Boosts the agent's dictionary words natively (else they go in a prompt, or nowhere). */
  keyterms: boolean;
  /** Recognises two spoken languages in one call (code-switching), reporting each utterance's language. */
  codeSwitching: boolean;
  /** spoken_languages codes it recognises. */
  languages: readonly SpokenLanguage[];
  defaultModel: string;
}

/** One cloud speech provider: its adapters, what it supports and how its keys are checked. */
export interface SpeechPlugin {
  readonly name: SpeechProviderName;
  /** How people name it (ElevenLabs, Azure Speech). */
  readonly label: string;
  /** The public API's base URL, used when no setting overrides it. Azure's holds `{region}`. */
  readonly defaultBaseUrl: string;
  /** Keys belong to a region the credential names (Azure). */
  readonly needsRegion?: boolean;
  readonly tts?: TtsCapabilities;
  readonly stt?: SttCapabilities;
  /** One cheap authenticated request; never throws. */
  checkKey(request: KeyCheckRequest, signal?: AbortSignal): Promise<KeyCheck>;
}

/** The base URL with a credential's region put in (Azure's `https://{region}.tts.speech.microsoft.com`). */
export function baseUrlFor(template: string, region?: string): string {
  return region ? template.replace('{region}', encodeURIComponent(region)) : template;
}
