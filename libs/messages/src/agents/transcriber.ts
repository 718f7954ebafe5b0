import type { SttProviderName } from '../voice/speech-providers';
import type { SpokenLanguage } from './spoken-languages';

/**
 * The agent's choice of speech-to-text: provider, model, the languages to recognise (the agent's
 * spoken_languages when absent), words to boost, and provider options within their documented bounds
 * (TRANSCRIBER_OPTIONS). Absent: the deployment's default transcriber.
 */
export interface TranscriberSettings {
  provider: SttProviderName;
  model?: string;
  languages?: SpokenLanguage[];
  keyterms?: string[];
  options?: Record<string, string | number | boolean>;
}

export const MAX_TRANSCRIBER_KEYTERMS = 50;
export const MAX_KEYTERM_CHARS = 64;
export const MAX_FALLBACK_VOICES = 3;
export const MAX_AGENT_DICTIONARIES = 5;

/** Provider options a transcriber may set, with their bounds; anything else is refused. */
export const TRANSCRIBER_OPTIONS: Readonly<
  Partial<
    Record<
      SttProviderName,
      Readonly<Record<string, { type: 'boolean' } | { type: 'number'; min: number; max: number }>>
    >
  >
> = {
  deepgram: {
    smart_format: { type: 'boolean' },
    numerals: { type: 'boolean' },
    endpointing_ms: { type: 'number', min: 10, max: 2000 },
  },
  assemblyai: {
    end_of_turn_confidence_threshold: { type: 'number', min: 0, max: 1 },
    min_end_of_turn_silence_when_confident_ms: { type: 'number', min: 0, max: 2000 },
  },
  sarvam: {
    high_vad_sensitivity: { type: 'boolean' },
  },
};
