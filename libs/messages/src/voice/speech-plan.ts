import type { TranscriberSettings } from '../agents/transcriber';
import type { SpeechProviderName, SttProviderName, TtsProviderName } from './speech-providers';

/** Who pays a provider for a call's speech: the partner's own key, or the platform's. */
export type SpeechPaidBy = 'account' | 'platform';

/**
 * A key the voice service uses for one call: the partner's (unsealed for the call by the agents service, never
 * stored by voice) or the platform's. Never logged; it lives as long as the call's providers.
 */
export interface SpeechCredential {
  provider: SpeechProviderName;
  apiKey: string;
  /** The provider's API base (the platform's setting for that provider; Azure's with the key's region in it). */
  baseUrl: string;
  region?: string;
  paidBy: SpeechPaidBy;
}

/** One voice a call may speak with, first the agent's, then its fallbacks. */
export interface TtsPlanEntry {
  provider: TtsProviderName;
  /** The catalog voice (uuid); `offline` for the development stand-in. */
  voiceId: string;
  providerVoiceId: string;
  model: string;
  speed: number;
  volume: number;
  /** The voice's locale (en-IN, hi-IN). */
  language: string;
  /**
   * Absent for `offline` and `local`, and for a cloud voice with no key anywhere: voice then uses the
   * deployment's default TTS chain when it runs that provider, else the stand-in (local speech where the
   * deployment runs it, else the offline engine).
   */
  credential?: SpeechCredential;
}

/** One transcriber a call may hear with, first the agent's, then its fallback. */
export interface SttPlanEntry {
  provider: SttProviderName;
  model?: string;
  /** spoken_languages codes (two: the caller may switch between them). */
  languages: string[];
  /** Provider options within their documented bounds (the transcriber's `options`). */
  options?: Record<string, string | number | boolean>;
  credential?: SpeechCredential;
}

/** A word of the agent's dictionaries as speech providers take it. */
export interface SpeechPlanPronunciation {
  word: string;
  alias?: string;
  ipa?: string;
}

/**
 * agents.speech.plan: the speech a call runs with, resolved when its media starts from the agent's snapshot
 * (voice_id, fallback_voice_ids, transcriber, fallback_transcriber, dictionary_ids: the call keeps what the agent
 * was when it started) and the account's keys (the caller context's partner).
 * `stt` empty: the agent chose no transcriber (or none is usable); the deployment's default STT serves.
 */
export interface SpeechPlanRequest {
  callId: string;
  voiceId: string;
  fallbackVoiceIds: string[];
  transcriber: TranscriberSettings | null;
  fallbackTranscriber: TranscriberSettings | null;
  dictionaryIds: string[];
  spokenLanguages: string[];
}

export interface SpeechPlan {
  tts: TtsPlanEntry[];
  stt: SttPlanEntry[];
  /** Dictionary words to boost in recognition (bounded: MAX_PLAN_KEYTERMS). */
  keyterms: string[];
  pronunciations: SpeechPlanPronunciation[];
}

/** At most this many keyterms go to a recogniser (providers cap theirs near 100). */
export const MAX_PLAN_KEYTERMS = 100;
