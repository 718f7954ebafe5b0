// An early reply: the model's first round, started on the words of a pause that look like a finished turn. Its
// sentences wait unheard; the final transcript adopts it (same words) or discards it. Tools it asks for run only
// once adopted.

import type { Utterance } from '../caller-input';
import type { ConversationPort } from '../conversation-port';
import type { ModelRoundResult } from '../model-round';
import { completenessOf, sameWords } from './utterance-text';

/** The turn that adopts an early reply, told of the model's first delta. */
export interface AdoptingTurn {
  llmFirstTokenAtMs: number | null;
}

export interface EarlyReply {
  readonly utteranceId: number;
  readonly text: string;
  readonly controller: AbortController;
  readonly round: Promise<ModelRoundResult>;
  /** Sentences written before adoption. */
  readonly sentences: string[];
  /** Where sentences go once adopted. */
  sink: ((sentence: string) => void) | null;
  /** Media ms of the model's first delta, once it came. */
  firstDeltaAtMs: number | null;
  /** The turn that adopted it, told of the first delta if it comes later. */
  adoptedBy: AdoptingTurn | null;
}

export interface EarlyReplyOptions {
  /** Whether something holds the floor or must come first (a turn, an overlap, open tools, a notice, late answers). */
  blocked(): boolean;
  /** Whether answers wait for the next model round: an early reply would leave them out. */
  answersWaiting(): boolean;
  /** The model's first round on the caller's `text`, with the history as it is now. */
  firstRound(
    text: string,
    signal: AbortSignal,
    onSentence: (sentence: string) => void,
    onFirstDelta: () => void,
  ): Promise<ModelRoundResult>;
}

export class EarlyReplies {
  private early: EarlyReply | null = null;

  constructor(
    private readonly port: ConversationPort,
    private readonly options: EarlyReplyOptions,
  ) {
    // A new utterance, a key, a typed line: an early reply to the words before it answers the wrong turn.
    port.events.on('callerStarted', () => this.discard());
  }

  /** An early reply is under way. */
  get pending(): boolean {
    return this.early !== null;
  }

  /**
   * At a pause whose words look like a finished turn, the model starts on them; nothing of it is heard before the
   * endpoint, and a final transcript with other words discards it (adopt).
   */
  start(utterance: Utterance): void {
    // The same words at a later pause (the caller breathed, a noise): the reply under way is already theirs,
    // and asking again would pay for the same request twice.
    this.heard(utterance);
    if (this.early || this.port.ending || this.options.blocked()) return;
    // Async answers waiting for the next round belong in it: the turn's own first round takes them.
    if (this.options.answersWaiting()) return;
    if (!utterance.paused || completenessOf(utterance.partial) !== 'complete') return;
    const controller = new AbortController();
    const sentences: string[] = [];
    const early: EarlyReply = {
      utteranceId: utterance.id,
      text: utterance.partial,
      controller,
      sentences,
      sink: null,
      firstDeltaAtMs: null,
      adoptedBy: null,
      round: this.options.firstRound(
        utterance.partial,
        controller.signal,
        (sentence) => (early.sink ? early.sink(sentence) : sentences.push(sentence)),
        () => {
          early.firstDeltaAtMs ??= this.port.clock.now();
          if (early.adoptedBy) early.adoptedBy.llmFirstTokenAtMs ??= early.firstDeltaAtMs;
        },
      ),
    };
    // Settled by the turn that adopts it; a discarded one's failure is nobody's.
    early.round.catch(() => undefined);
    this.early = early;
  }

  /**
   * The caller's words so far: an early reply to other words (the caller went on and said more) is dropped; one
   * to the same words stays, whether the caller paused again or only made a sound with no words in it.
   */
  heard(utterance: Utterance): void {
    const early = this.early;
    if (early && (early.utteranceId !== utterance.id || !sameWords(early.text, utterance.partial)))
      this.discard();
  }

  discard(): void {
    if (!this.early) return;
    this.early.controller.abort();
    this.early = null;
    this.port.observe('early_reply_discarded');
  }

  /** The early reply, when it was started on exactly the words the caller's turn ended with. */
  adopt(utterance: Utterance, text: string): EarlyReply | null {
    const early = this.early;
    if (!early) return null;
    // An async answer that came after it started is not in its request, and must not wait for a later round.
    if (early.utteranceId !== utterance.id || !sameWords(early.text, text) || this.options.answersWaiting()) {
      this.discard();
      return null;
    }
    this.early = null;
    this.port.observe('early_reply_used');
    return early;
  }
}

/** The early reply's round as the turn's first: what it wrote so far is said now, the rest as it comes. */
export function adoptedRound(
  turn: AdoptingTurn,
  early: EarlyReply,
  say: (sentence: string) => void,
): Promise<ModelRoundResult> {
  early.sink = say;
  early.adoptedBy = turn;
  turn.llmFirstTokenAtMs ??= early.firstDeltaAtMs;
  for (const sentence of early.sentences.splice(0)) say(sentence);
  return early.round;
}
