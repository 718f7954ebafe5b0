import type { SttProviderName } from '@vap/messages';

/** Speech to text for one call. Audio arrives as PCM16 mono at 8 kHz; a provider resamples to what it needs. */
export interface SttSession {
  /**
   * Audio of the caller's current utterance (a short pre-roll from before speech started, then frame after
   * frame). The buffer is the caller's and is reused once push() returns: a session that keeps audio copies it.
   */
  push(frame: Int16Array): void;
  /**
   * The endpointer decided the utterance ended: resolves with its text ('' when nothing was understood).
   * Rejects when the provider fails or times out (the pipeline then apologises and hangs up).
   */
  finish(signal?: AbortSignal): Promise<string>;
  /**
   * Set by the caller's input: the session calls it with the current utterance's words so far whenever they
   * change (interim results of a streaming provider, the offline engine's decoded text). Turn-taking reads them.
   */
  onPartial?: (text: string) => void;
  /**
   * Providers with no interim results (they transcribe whole utterances) transcribe the utterance so far on
   * request, at the caller's pauses, without ending it: the documented fallback for adaptive endpointing and
   * early replies. Absent where partial text comes by onPartial.
   */
  speculate?(signal?: AbortSignal): Promise<string>;
  /**
   * The language (a spoken_languages code: en, hi, ta...) of the utterance finish() last resolved, for providers
   * that detect it (multilingual and code-switching models). Undefined when the provider does not say.
   */
  readonly language?: string;
  /** The call ended: release the provider's connection. */
  close(): Promise<void>;
}

export interface SttOptions {
  /**
   * The agent's spoken languages (spoken_languages codes: en, hinglish, hi, ta...). Two of them: the caller may
   * switch between them mid-call, so a provider that can recognises both (a multilingual model, or detection).
   */
  languages: string[];
  /** Words the recognizer should expect (names, products), where the provider takes a prompt. */
  prompt?: string;
  /**
   * Key terms to boost (the agent's dictionaries): Deepgram `keyterm`/`keywords`, AssemblyAI `keyterms_prompt`,
   * a prompt elsewhere. Bounded by the caller (MAX_KEYTERMS, each at most MAX_KEYTERM_CHARS).
   */
  keyterms?: readonly string[];
  /** The agent's transcriber model; the provider's default when absent. */
  model?: string;
  /**
   * The agent's transcriber options, already validated against the provider's TRANSCRIBER_OPTIONS bounds
   * (Deepgram smart_format, AssemblyAI end_of_turn_confidence_threshold...). Unknown keys are ignored.
   */
  providerOptions?: Record<string, string | number | boolean>;
}

export interface SttProvider {
  readonly name: SttProviderName;
  open(options: SttOptions): Promise<SttSession>;
}

export const STT_PROVIDER = Symbol('STT_PROVIDER');
