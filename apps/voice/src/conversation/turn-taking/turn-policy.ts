// Who has the floor when the caller makes sound over the agent: barge-in (the agent gives way), hold (the agent
// goes quiet while unknown words last) and backchannels (an acknowledgement the agent talks through).

import type { Utterance } from '../caller-input';
import type { ConversationPort } from '../conversation-port';
import { bargeInOf } from './utterance-text';

/**
 * Caller sound over the agent whose words are not known yet makes the agent go quiet (hold) after this much media
 * time: longer than an acknowledgement ("yeah", "mm-hmm" last well under it, and their words are known by then),
 * short enough that a caller who talks on is not talked over for long. Words that ask for the floor cut the agent
 * as soon as they are known.
 */
export const BARGE_IN_HOLD_MS = 800;

/** Caller sound over the agent, not yet judged: an interruption, or an acknowledgement or noise to talk through. */
interface Overlap {
  readonly utterance: Utterance;
  /** The utterance's audio when the overlap began: the hold counts the caller's audio from there. */
  readonly fromAudioMs: number;
  cancelHold: (() => void) | null;
}

export class TurnPolicy {
  private overlap: Overlap | null = null;

  constructor(
    private readonly port: ConversationPort,
    /** Gives the agent's turn up (its model, synthesis and tools stop). */
    private readonly dropTurn: () => void,
  ) {}

  /** Caller sound over the agent is being judged. */
  get overlapping(): boolean {
    return this.overlap !== null;
  }

  /** The caller started an utterance: over the agent it is judged by its words, else it takes the floor. */
  callerStarted(utterance: Utterance): void {
    const { port } = this;
    if (port.ending || port.turn?.committed) return;
    if (port.turnTaking.ignoreBackchannels && port.voice.audible) {
      // Over the agent: its words decide (callerWords, callerFinished); until then the agent talks on, and goes
      // quiet only if the sound lasts (armHold).
      this.overlap?.cancelHold?.();
      this.overlap = { utterance, fromAudioMs: utterance.audioMs, cancelHold: null };
      if (!port.voice.holding) this.armHold(BARGE_IN_HOLD_MS);
      return;
    }
    this.bargeIn();
  }

  /** A key press or a typed line takes the floor as speech does, unless the agent is ending or committed. */
  callerTookFloor(): void {
    if (this.port.ending || this.port.turn?.committed) return;
    this.bargeIn();
  }

  /** The words so far of an utterance; true when they belong to an overlap (and were judged here). */
  callerWords(utterance: Utterance): boolean {
    if (this.overlap?.utterance !== utterance) return false;
    // More than an acknowledgement, or a word that asks for the floor: the agent stops at once.
    if (bargeInOf(utterance.partial) === 'interrupt') this.callerTookFloor();
    return true;
  }

  /**
   * The utterance's final words. 'backchannel': an acknowledgement or sound with no words over the agent, which
   * talks on (from the sentence it cut, if it had gone quiet); it is no turn of the model's. 'turn': the words
   * are the caller's (the agent gave way if they came over it).
   */
  callerFinished(utterance: Utterance, text: string): 'backchannel' | 'turn' {
    if (this.overlap?.utterance !== utterance) return 'turn';
    const { port } = this;
    if (bargeInOf(text) === 'interrupt') {
      this.callerTookFloor();
      return 'turn';
    }
    this.endOverlap();
    if (port.voice.holding) {
      port.voice.release();
      if (!text) port.observe('false_barge_in_recovered');
    }
    if (text) port.observe('backchannel');
    return 'backchannel';
  }

  /** Barge-in: whatever the agent was preparing or saying gives way to the caller. */
  bargeIn(): void {
    this.endOverlap();
    this.dropTurn();
    if (this.port.voice.interrupt()) this.port.observe('barge_in');
  }

  private endOverlap(): void {
    this.overlap?.cancelHold?.();
    this.overlap = null;
  }

  /**
   * Holds the agent once the overlap's caller audio reaches BARGE_IN_HOLD_MS. Counted in the caller's audio, not
   * wall time, so the words that audio carries (decided on as it arrives) are always known by then.
   */
  private armHold(afterMs: number): void {
    const overlap = this.overlap!;
    overlap.cancelHold = this.port.clock.after(afterMs, () => {
      overlap.cancelHold = null;
      if (this.overlap !== overlap) return;
      const { utterance } = overlap;
      // A caller already silent again (a pause), or whose words are an acknowledgement, is waited for without
      // stopping the agent.
      if (utterance.ended || utterance.paused || bargeInOf(utterance.partial) === 'backchannel') return;
      const heardMs = utterance.audioMs - overlap.fromAudioMs;
      if (heardMs < BARGE_IN_HOLD_MS) return this.armHold(BARGE_IN_HOLD_MS - heardMs);
      if (this.port.voice.hold()) this.port.observe('held');
    });
  }
}
