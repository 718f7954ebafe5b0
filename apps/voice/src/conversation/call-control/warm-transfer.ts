// transfer_call with transfer_mode warm or warm_handback: the caller is put on hold (the catalog's soft piano
// bed) while the calls service dials the human, whom the agent briefs on a consult stream of their own (see
// consult/consult-conversation.ts); the outcome comes back from the calls service. Bridged: the carrier has the
// caller, the agent lets go. Anything else: the hold stops and the agent tells the caller; warm then says goodbye,
// warm_handback carries on with the caller.

import { AgentDefaults, TRANSFER_BRIEFING_MAX, type TransferOutcome } from '@vap/messages';
import { OfflineChatModel, type ChatMessage } from '@vap/llm';
import { ambienceClip } from '../background-audio';
import type { CallCarrier } from '../call-platform';
import type { ConversationPort } from '../conversation-port';
import { saidSoFar } from '../handoffs/handoff-context';
import type { ControlledTurn } from '../call-control-port';

/** The hold audio: the background-audio catalog's soft piano bed, looped. */
export const HOLD_AUDIO_ID = 'f2ee4e45-19f9-419c-895f-d7b326b94c7f';

/**
 * Media ms the agent waits for the outcome beyond the ring timeout (briefing, the human's answer asked up to twice,
 * the bridge); past it the transfer is withdrawn (the human's leg hung up) and counts as failed.
 */
export const CONSULT_ALLOWANCE_MS = 120_000;

/**
 * After the caller's stream closes while a warm transfer waits, wall ms the outcome may take to arrive (the
 * carrier moves a bridged caller's leg before the calls service's word reaches this replica); then the transfer
 * is withdrawn and its outcome asked.
 */
export const OUTCOME_GRACE_MS = 3000;

/** How the agent's model is asked for the briefing (the agent's own instructions follow). */
export const BRIEFING_INSTRUCTIONS =
  'You are about to hand this phone call to a human colleague. Write what you will tell them before they take ' +
  'the caller: who is calling and what they need, in two or three short spoken sentences. Speak to the colleague ' +
  'directly. Plain text only.';

/** What the caller hears when the transfer did not go through, by outcome. */
export const WarmTransferPhrases = {
  no_answer: "I'm sorry, my colleague didn't answer.",
  declined: "I'm sorry, my colleague can't take your call right now.",
  failed: "I'm sorry, I couldn't reach my colleague right now.",
  handback: 'How else can I help?',
  goodbye: 'Thank you for calling. Goodbye!',
} as const;

/** end_call_reason of a warm transfer (not handback) that did not go through. */
export const TRANSFER_NOT_CONNECTED = 'transfer_not_connected';

/**
 * The briefing when the model does not write one (the offline engine, or a model that failed): the reason and
 * the caller's last words.
 */
export function plainBriefing(history: readonly ChatMessage[], reason: string): string {
  const lastCaller = [...saidSoFar(history)].reverse().find((m) => m.role === 'user')?.content;
  const said = lastCaller ? ` They said: ${lastCaller.trim()}` : '';
  return `Hello, I have a caller on the line for you. The reason: ${reason.trim() || 'they asked for a person'}.${said}`.slice(
    0,
    TRANSFER_BRIEFING_MAX,
  );
}

export class WarmTransfers {
  private waiting: ((outcome: TransferOutcome) => void) | null = null;
  private outcome: Promise<TransferOutcome> | null = null;
  private afterGone: Promise<boolean> | null = null;

  constructor(
    private readonly port: ConversationPort,
    private readonly carrier: CallCarrier,
    /** Whether the agent's model writes the briefing (not the offline engine's rules). */
    private readonly modelWrites: () => boolean,
  ) {}

  /**
   * For the call's end: a transfer waiting when the caller's stream closed settles true when it bridged. The
   * outcome gets OUTCOME_GRACE_MS to arrive; then the transfer is withdrawn, which answers how it ended.
   */
  get pending(): Promise<boolean> | null {
    const outcome = this.outcome;
    if (!outcome) return null;
    this.afterGone ??= new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.carrier.withdrawTransfer().then(
          (o) => resolve(o === 'bridged'),
          () => resolve(false),
        );
      }, OUTCOME_GRACE_MS);
      void outcome.then((o) => {
        clearTimeout(timer);
        resolve(o === 'bridged');
      });
    });
    return this.afterGone;
  }

  /** The calls service's word on the transfer; true when one was waiting for it. */
  settle(outcome: TransferOutcome): boolean {
    if (!this.waiting) return false;
    this.waiting(outcome);
    this.waiting = null;
    return true;
  }

  /**
   * The warm transfer (the transfer message said first); true when the caller was bridged. `decided` is told at
   * once the outcome is known. Otherwise the caller is told why and, with handback, still with the agent.
   */
  async run(
    turn: ControlledTurn,
    to: string,
    reason: string,
    decided: (ok: boolean) => void,
    handback: boolean,
    transferMessage: string,
  ): Promise<boolean> {
    const { port } = this;
    turn.committed = true;
    turn.say(transferMessage);
    await turn.finishSaying();
    if (turn.failure) throw turn.failure;
    if (port.ending) return false;
    port.caller.listening = false;
    const briefing = await this.briefing(reason);
    if (port.ending) return false;
    const stopHold = this.hold();
    const outcome = await this.outcomeOf(to, reason, briefing);
    stopHold();
    decided(outcome === 'bridged');
    if (outcome === 'bridged') {
      if (port.beginEnding('transferred')) await port.finish('transferred', false);
      return true;
    }
    if (port.ending) return false;
    const told = outcome === 'no_answer' || outcome === 'declined' ? outcome : 'failed';
    if (!handback) {
      // The turn's reply has ended: the goodbye is the platform's farewell, then the hang-up.
      const farewell = `${WarmTransferPhrases[told]} ${WarmTransferPhrases.goodbye}`;
      await port.endWith(TRANSFER_NOT_CONNECTED, farewell, { interrupt: false });
      return false;
    }
    turn.committed = false;
    port.caller.listening = true;
    turn.followUp(`${WarmTransferPhrases[told]} ${WarmTransferPhrases.handback}`);
    return false;
  }

  /** Asks for the transfer and waits for its outcome (bounded; the call's end stops the wait). */
  private async outcomeOf(to: string, reason: string, briefing: string): Promise<TransferOutcome> {
    const { port } = this;
    const outcome = new Promise<TransferOutcome>((resolve) => (this.waiting = resolve));
    this.outcome = outcome;
    const ringMs = (port.agent.transfer?.ringTimeoutSecs ?? AgentDefaults.transferRingTimeoutSecs) * 1000;
    let cancelGuard: () => void = () => undefined;
    const onEnd = () => this.settle('failed');
    port.callSignal.addEventListener('abort', onEnd, { once: true });
    try {
      if (!(await this.carrier.warmTransfer(to, reason, briefing))) return 'failed';
      cancelGuard = port.clock.after(ringMs + CONSULT_ALLOWANCE_MS, () => {
        void this.carrier.withdrawTransfer().then(
          (o) => this.settle(o ?? 'failed'),
          (error: unknown) => {
            port.onError(error, 'transfer withdrawal');
            this.settle('failed');
          },
        );
      });
      return await outcome;
    } catch (error) {
      port.onError(error, 'warm transfer');
      return 'failed';
    } finally {
      cancelGuard();
      port.callSignal.removeEventListener('abort', onEnd);
      this.waiting = null;
      this.outcome = null;
      this.afterGone = null;
    }
  }

  /** The briefing: the agent's model writes it from the conversation, else plainBriefing. */
  private async briefing(reason: string): Promise<string> {
    const { port } = this;
    const plain = plainBriefing(port.history, reason);
    if (!this.modelWrites()) return plain;
    const own = port.agent.transfer?.briefingInstructions;
    const transcript = saidSoFar(port.history)
      .map((m) => `${m.role === 'user' ? 'Caller' : 'Agent'}: ${m.content}`)
      .join('\n');
    try {
      const written = (
        await port.complete(
          [
            { role: 'system', content: own ? `${BRIEFING_INSTRUCTIONS}\n\n${own}` : BRIEFING_INSTRUCTIONS },
            { role: 'user', content: `${transcript}\n\nReason for the transfer: ${reason}` },
          ],
          port.callSignal,
        )
      ).trim();
      if (written) return written.slice(0, TRANSFER_BRIEFING_MAX);
      port.onError(new Error('the briefing came back empty'), 'warm transfer briefing');
    } catch (error) {
      port.onError(error, 'warm transfer briefing');
    }
    return plain;
  }

  /** Loops the hold audio on the caller's stream until the returned stop is called. */
  private hold(): () => void {
    const { port } = this;
    const controller = new AbortController();
    void port.voice.loop(ambienceClip(HOLD_AUDIO_ID), controller.signal);
    return () => {
      if (controller.signal.aborted) return;
      controller.abort();
      port.voice.interrupt();
    };
  }
}

/** Whether `model` writes free text (a real model), not the offline engine's rules. */
export function writesFreely(model: unknown): boolean {
  return !(model instanceof OfflineChatModel);
}
