import { completenessOf } from './utterance-text';

/**
 * Caller silence that marks a pause, media ms: the moment the words so far are judged (and, for providers that
 * only transcribe whole utterances, transcribed speculatively) and an early reply may start. Shorter than any
 * endpoint, longer than the gaps between syllables.
 */
export const PAUSE_MS = 100;

export interface EndpointBounds {
  minSilenceMs: number;
  maxSilenceMs: number;
}

/**
 * Adaptive endpointing: how much silence ends the caller's turn, from what they said so far. A finished sentence
 * or question ends it after the minimum; words that plainly go on (a trailing "and", "um", a number being read
 * out) wait for the maximum; words not known yet (or unpunctuated) wait a third of the way between, which for
 * the balanced mode is the fixed 700 ms the platform used before.
 */
export class Endpointer {
  readonly unsureSilenceMs: number;

  constructor(readonly bounds: EndpointBounds) {
    this.unsureSilenceMs = Math.round(bounds.minSilenceMs + (bounds.maxSilenceMs - bounds.minSilenceMs) / 3);
  }

  /** Silence, ms, after which the turn is over given the words so far ('' or null when none are known). */
  requiredSilenceMs(partial: string | null): number {
    switch (completenessOf(partial ?? '')) {
      case 'complete':
        return this.bounds.minSilenceMs;
      case 'incomplete':
        return this.bounds.maxSilenceMs;
      default:
        return this.unsureSilenceMs;
    }
  }

  /** The VAD silence that marks a pause under these bounds. */
  get pauseMs(): number {
    return Math.min(PAUSE_MS, this.bounds.minSilenceMs);
  }
}
