// What the agent's tools may do to the call: end it, opt the person out, transfer it, press keys, and say the
// agent's acknowledgement while a slow tool runs. Implemented once here; a tool asks for it through its turn
// (ToolTurn.control), as the conversation's own policies ask the port.

import {
  AppError,
  dtmfInputText,
  ErrorCode,
  HANDOFF_LIMITS,
  type HandoffSnapshot,
  type TransferOutcome,
} from '@vap/messages';
import type { ToolCall } from '@vap/llm';
import type { CallAgents, CallCarrier } from '../call-platform';
import { handoffContext, passedVariables } from '../handoffs/handoff-context';
import type { CallControl, ControlledTurn, TurnControls } from '../call-control-port';
import type { ConversationPort, CurrentTurn } from '../conversation-port';
import { sendDtmf, type DtmfRoute } from '../dtmf/send-dtmf';
import { Phrases } from '../phrases';
import { substituteVariables } from '../prompt';
import { Aborted } from '../provider-failure';
import { TRANSFER_CALL_TOOL } from '../tools/names';
import { toolAckPhrase } from '../tools/acknowledgement';
import { WarmTransfers } from './warm-transfer';

/** end_call_reason of a call the person asked not to be called again on. */
export const OPTED_OUT = 'opted_out';

/** The handoff tool's result when the call reached the handoffs one call may have. */
export const HANDOFF_BOUND_RESULT =
  `Not handed over: this call has been handed over ${HANDOFF_LIMITS.perCall} times, the most one call may be, ` +
  'so no agent can take it now. Do not try another handover; carry on with the caller yourself.';

export class CallControls implements TurnControls {
  private pending: Promise<boolean> | null = null;
  private readonly warm: WarmTransfers;

  constructor(
    private readonly port: ConversationPort,
    private readonly carrier: CallCarrier,
    private readonly agents: CallAgents,
    private readonly dtmfRoute: DtmfRoute,
    /** Whether the agent's model writes free text (a warm transfer's briefing); false for the offline engine. */
    modelWrites: () => boolean = () => false,
  ) {
    this.warm = new WarmTransfers(port, carrier, modelWrites);
  }

  /** A transfer asked of the carrier and not yet answered: settles true when it took the call. */
  get pendingTransfer(): Promise<boolean> | null {
    return this.pending ?? this.warm.pending;
  }

  /** How the call's warm transfer ended (from the calls service); true when one was waiting for it. */
  transferOutcome(outcome: TransferOutcome): boolean {
    return this.warm.settle(outcome);
  }

  /** The call control a tool of `tool` gets in `turn`. */
  forTurn(tool: string, turn: ControlledTurn): CallControl {
    return {
      endCall: () => this.endCall(turn),
      optOut: (decided) => this.optOut(turn, decided),
      transfer: async (to, reason, decided) => {
        const mode = this.port.agent.transfer?.mode ?? 'cold';
        if (mode !== 'cold') {
          const message = this.message(this.port.agent.transferMessage, Phrases.transferDefault);
          return this.warm.run(turn, to, reason, decided, mode === 'warm_handback', message);
        }
        const ok = await this.transfer(turn, to, reason, decided);
        if (!ok && !this.port.ending) turn.followUp(Phrases.transferFailed);
        return ok;
      },
      pressKeys: (call) => this.pressKeys(turn, call),
      withAck: (work) => this.withAck(tool, turn, work, (phrase) => turn.say(phrase)),
      handOff: (handoff, reason, summary) => this.handOff(turn, handoff, reason, summary),
    };
  }

  private async endCall(turn: ControlledTurn): Promise<void> {
    const { port } = this;
    if (!port.beginEnding('agent_ended_call')) return;
    turn.committed = true;
    turn.say(this.message(port.agent.endCallMessage, Phrases.endCallDefault));
    await turn.finishSaying();
    await port.finish('agent_ended_call', true);
  }

  /** opt_out: the number joins the do-not-call list, then a short goodbye and the hang-up. */
  private async optOut(turn: ControlledTurn, decided: (listed: boolean) => void): Promise<void> {
    const { port } = this;
    if (!port.beginEnding(OPTED_OUT)) return;
    turn.committed = true;
    let listed = true;
    try {
      await this.carrier.optOut();
    } catch (error) {
      listed = false;
      port.onError(error, 'opt_out');
    }
    decided(listed);
    turn.say(listed ? Phrases.optOutFarewell : Phrases.optOutFailed);
    await turn.finishSaying();
    await port.finish(OPTED_OUT, true);
  }

  private async transfer(
    turn: ControlledTurn,
    to: string,
    reason: string,
    decided: (ok: boolean) => void,
  ): Promise<boolean> {
    const { port } = this;
    turn.committed = true;
    turn.say(this.message(port.agent.transferMessage, Phrases.transferDefault));
    await turn.finishSaying();
    if (turn.failure) throw turn.failure;
    if (port.ending) return false;
    port.caller.listening = false;
    const transfer = this.withAck(TRANSFER_CALL_TOOL, turn, this.carrier.transfer(to, reason), (phrase) =>
      port.say(phrase, { remember: false }),
    );
    this.pending = transfer.catch(() => false);
    let ok = false;
    try {
      ok = await transfer;
    } catch (error) {
      port.onError(error, 'transfer');
    } finally {
      this.pending = null;
    }
    decided(ok);
    if (ok) {
      if (port.beginEnding('transferred')) await port.finish('transferred', false);
      return true;
    }
    if (port.ending) return false;
    turn.committed = false;
    port.caller.listening = true;
    return false;
  }

  /**
   * A handoff: committed once asked (the caller's speech no longer gives the turn up, so the call and the agent
   * holding it never disagree), then the next agent's context is made and the conversation hands over.
   */
  private async handOff(
    turn: ControlledTurn,
    handoff: HandoffSnapshot,
    reason: string,
    summary: string,
  ): Promise<{ handedOff: boolean; result: string }> {
    const { port } = this;
    await turn.finishSaying();
    if (port.ending) return { handedOff: false, result: 'The call is ending.' };
    turn.committed = true;
    let next;
    try {
      next = await this.agents.handOff(handoff.agentId, reason);
    } catch (error) {
      turn.committed = false;
      // The bound on handoffs in one call (a loop between agents): the model is told so, or it would try again.
      if (error instanceof AppError && error.code === ErrorCode.LIMIT_REACHED)
        return { handedOff: false, result: HANDOFF_BOUND_RESULT };
      port.onError(error, 'handoff');
      return { handedOff: false, result: 'The handover failed. Carry on with the caller yourself.' };
    }
    // The next agent thinks with its own models: asked for while the context is made (a summary is written by the
    // current agent's model, before the switch).
    const [context, models] = await Promise.all([
      handoffContext(
        port.history,
        handoff,
        summary,
        (messages) => port.complete(messages, port.callSignal),
        (error) => port.onError(error, 'handoff summary'),
      ),
      port.modelsOf(next.agent),
    ]);
    const variables = passedVariables(port.variables, handoff.variables);
    // Once this turn is over (its tool results in the history it leaves), the next agent holds the call and
    // opens with its intro, or answers where the conversation is.
    const off = port.events.on('turnEnded', () => {
      off();
      if (port.ending) return;
      port.useAgent(next.agent, context, variables, models);
      if (next.agent.introMessage) port.say(substituteVariables(next.agent.introMessage, port.variables));
      else port.speakUp();
    });
    return { handedOff: true, result: `Handed over to ${next.agentName}.` };
  }

  /** send_dtmf: in-band tones play as a line of their own after what the turn said so far. */
  private async pressKeys(turn: ControlledTurn, call: ToolCall): Promise<string> {
    const { port } = this;
    try {
      return await sendDtmf(call, {
        route: this.dtmfRoute,
        play: (label, audio) => turn.play(label, audio),
        viaCarrier: async (digits) => {
          const sent = await this.carrier.sendDigits(digits);
          // In the transcript as in-band keys are (their line's label), so both routes read the same.
          if (sent)
            port.report({
              role: 'bot',
              content: dtmfInputText(digits, null),
              atMs: Math.round(port.clock.now()),
            });
          return sent;
        },
      });
    } catch (error) {
      if (error instanceof Aborted) throw error;
      port.onError(error, 'send_dtmf');
      return 'The keys could not be sent right now.';
    }
  }

  /** Awaits a tool, speaking the agent's acknowledgement if it runs past tool_ack_config.delay_ms. */
  private async withAck<T>(
    tool: string,
    turn: CurrentTurn,
    work: Promise<T>,
    speak: (phrase: string) => void,
  ): Promise<T> {
    const { port } = this;
    const config = port.agent.toolAckConfig;
    const phrase = toolAckPhrase(config, tool);
    const cancel =
      phrase && config
        ? port.clock.after(config.delayMs, () => {
            if (!turn.controller.signal.aborted && !port.ending) speak(phrase);
          })
        : null;
    try {
      const result = await work;
      if (turn.controller.signal.aborted && !turn.committed) throw new Aborted();
      return result;
    } finally {
      cancel?.();
    }
  }

  /** The agent's own message for the moment (with the call's variables), else the platform's. */
  private message(own: string | null, fallback: string): string {
    return own ? substituteVariables(own, this.port.variables) : fallback;
  }
}
