// How a live call ends, one way for every cause: the agent's decision (call control), the platform's (idle, the
// call cap, a provider failure, end() from outside), the stream going away, or the call ending elsewhere
// (terminate()). It hangs up when asked, stops every timer and provider, waits for the transcript, and settles.

import type { ModelUsageEntry } from '@vap/messages';
import type { CallMedia } from './call-media';
import type { ConversationResult } from './conversation-contract';
import type { ConversationEventBus, EndOptions } from './conversation-port';
import { Phrases } from './phrases';
import type { ProviderFailure } from './provider-failure';

/** After a provider failure the apology gets this long (wall ms) per TTS chunk; then the call ends silently. */
export const APOLOGY_TIMEOUT_MS = 3000;

/**
 * end(reason) from outside: media ms the farewell has to start (its synthesis) before the hang-up goes ahead
 * without it. Once heard it plays to its end, within FAREWELL_LIMIT_MS: a goodbye cut mid-word because the
 * provider was slow to start it is worse than none.
 */
export const FAREWELL_START_LIMIT_MS = 6000;
/**
 * end(reason) from outside: media ms the farewell may take in all, started or not. Under the 10 s after which
 * calls' balance guard, asking again, hangs the call up through the carrier itself.
 */
export const FAREWELL_LIMIT_MS = 9000;

export interface CallLifecycleOptions {
  events: ConversationEventBus;
  /** The call's media, once the stream started. */
  media(): CallMedia | null;
  /** Gives the agent's turn up: its model, synthesis and tools stop. */
  dropTurn(): void;
  /** A transfer asked of the carrier and not yet answered. */
  pendingTransfer(): Promise<boolean> | null;
  /** Hang up through the carrier. */
  hangup(reason: string): Promise<void>;
  /** Resolves once the call's reports are through. */
  reportsSent(): Promise<void>;
  /** The call's model use so far, per model that wrote a round. */
  modelUsage?(): ModelUsageEntry[];
  /** Aborted when the call ends: partner functions still running are given up. */
  callController: AbortController;
  onError?: (error: unknown, context: string) => void;
}

export class CallLifecycle {
  phase: 'waiting' | 'live' | 'done' = 'waiting';
  /** The agent (or the platform) has decided how the call ends; the caller can no longer start turns. */
  ending = false;
  private finishing = false;
  /** The call ended elsewhere (terminate()): nothing more goes to the carrier, the providers or calls. */
  terminated = false;
  private decidedReason: string | null = null;
  readonly done: Promise<ConversationResult>;
  private resolveDone!: (result: ConversationResult) => void;

  constructor(private readonly options: CallLifecycleOptions) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  /** Whether the call is over or on its way out (nothing more may start it ending). */
  get closing(): boolean {
    return this.ending || this.finishing || this.phase === 'done';
  }

  /** Ends the call from outside: a farewell if there is time, then the hang-up; false when it already ends. */
  end(reason: string): boolean {
    if (this.closing) return false;
    if (this.phase === 'waiting') {
      this.ending = true;
      void this.finish(reason, true);
      return true;
    }
    void this.endWith(reason, Phrases.endFarewell, {
      interrupt: true,
      startLimitMs: FAREWELL_START_LIMIT_MS,
      limitMs: FAREWELL_LIMIT_MS,
    });
    return true;
  }

  /** The call ended elsewhere: stop now, no farewell, no hang-up. */
  terminate(): boolean {
    if (this.phase === 'done' || this.terminated) return false;
    this.terminated = true;
    this.ending = true;
    const input = this.options.media()?.input;
    if (input) input.listening = false;
    // A finish already under way (waiting on its hang-up or a farewell) stops what it would stop after it.
    if (this.finishing) void this.stopWork();
    else void this.finish(this.decidedReason, false);
    return true;
  }

  /** Marks the call as ending for `reason`; false when it already is. */
  beginEnding(reason: string): boolean {
    if (this.ending || this.phase !== 'live') return false;
    this.ending = true;
    this.decidedReason = reason;
    this.options.events.emit('ending', { reason });
    const media = this.options.media();
    if (media) media.input.listening = false;
    media?.keypad.stop();
    return true;
  }

  /** The platform ends the call: stop the turn, say the farewell (bounded), hang up. */
  async endWith(reason: string, farewell: string | null, options: EndOptions): Promise<void> {
    if (!this.beginEnding(reason)) return;
    this.options.dropTurn();
    const { speech, time } = this.options.media()!;
    if (options.interrupt) speech.interrupt();
    if (farewell) {
      let heard = false;
      const spoken = speech
        .speak(farewell, { timeoutMs: options.timeoutMs, onFirstFrame: () => (heard = true) })
        .then(
          () => undefined,
          (error: unknown) => this.options.onError?.(error, 'farewell'),
        );
      const deadlines: Promise<void>[] = [];
      if (options.limitMs) deadlines.push(time.sleep(options.limitMs));
      // Past its start limit, a farewell being heard plays on (within limitMs); one not heard yet is given up.
      if (options.startLimitMs)
        deadlines.push(time.sleep(options.startLimitMs).then(() => (heard ? spoken : undefined)));
      await Promise.race([spoken, ...deadlines]);
    }
    await this.finish(reason, true);
  }

  async providerFailed(failure: ProviderFailure): Promise<void> {
    if (this.phase !== 'live' || this.finishing) return;
    this.options.onError?.(failure, 'provider');
    if (this.ending) {
      // Already saying goodbye (a farewell's TTS failed): hang up as decided, without the rest of it.
      this.options.media()!.speech.interrupt();
      return;
    }
    // Apologise through TTS once more with a short timeout; if TTS itself is down this fails fast and the call
    // ends without the apology rather than hanging.
    await this.endWith(failure.endCallReason, Phrases.apology, {
      interrupt: true,
      timeoutMs: APOLOGY_TIMEOUT_MS,
    });
  }

  /**
   * The carrier's stream ended. A stream the platform cut (`cutReason`) leaves a call the carrier may still
   * hold: it is hung up, with the reason the conversation had decided, else the cut's. A far end that said why
   * it stopped (`stopReason`, a browser's caller_ended) ends the call with that reason when nothing was decided.
   */
  async streamGone(cutReason?: string, stopReason?: string): Promise<void> {
    const hangup = cutReason !== undefined;
    if (this.phase === 'waiting') {
      this.phase = 'live';
      await this.finish(cutReason ?? stopReason ?? null, hangup);
      return;
    }
    const media = this.options.media();
    if (this.finishing || this.phase !== 'live') {
      media?.speech.stop();
      return;
    }
    this.options.dropTurn();
    if (media) media.input.listening = false;
    // The caller hung up mid-sentence: report what they heard. A transfer in flight is what ended the stream.
    media?.speech.stop();
    let reason = this.decidedReason ?? cutReason ?? stopReason ?? null;
    const transfer = this.options.pendingTransfer();
    if (transfer && (await transfer)) reason = 'transferred';
    await this.finish(reason, hangup && reason !== 'transferred');
  }

  /** Hangs up (when asked), stops every timer and provider, waits for the transcript, settles `done`. */
  async finish(reason: string | null, hangup: boolean): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    // A call that has ended already has nothing to hang up.
    if (hangup && reason && !this.terminated) {
      await this.options.hangup(reason).catch((error: unknown) => this.options.onError?.(error, 'hangup'));
    }
    const media = this.options.media();
    const mediaSeconds = (media?.time.now() ?? 0) / 1000;
    await this.stopWork();
    await this.options.reportsSent();
    // What is left of the recording (a window or two) and its header; the rest went out as the call ran.
    const recording = media?.recorder ? await media.recorder.close() : null;
    this.phase = 'done';
    this.resolveDone({
      endCallReason: reason,
      mediaSeconds,
      recording,
      modelUsage: this.options.modelUsage?.() ?? [],
      ...(media ? { pacing: media.speech.pacing } : {}),
    });
  }

  /** Aborts the turn (model, synthesis, tools), cancels every timer, stops the audio and closes STT. */
  private stopWork(): Promise<void> {
    const media = this.options.media();
    this.options.dropTurn();
    this.options.events.emit('closed', {});
    media?.keypad.stop();
    this.options.callController.abort();
    media?.speech.stop();
    media?.time.stop();
    return media?.input.close() ?? Promise.resolve();
  }
}
