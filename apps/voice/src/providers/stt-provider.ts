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
  /** The call ended: release the provider's connection. */
  close(): Promise<void>;
}

export interface SttOptions {
  /** The agent's spoken languages (catalog codes, e.g. en, hi), as recognition hints. */
  languages: string[];
  /** Words the recognizer should expect (names, products), where the provider takes a prompt. */
  prompt?: string;
}

export interface SttProvider {
  readonly name: 'offline' | 'openai' | 'deepgram';
  open(options: SttOptions): Promise<SttSession>;
}

export const STT_PROVIDER = Symbol('STT_PROVIDER');
