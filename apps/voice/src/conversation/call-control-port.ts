// Call control as the tools and the conversation see it: what a tool may do to the call (CallControl), what call
// control needs of the turn it acts in (ControlledTurn), and how the tool runner gets it for one turn. Apart from
// its implementation (call-control/), which says the agent's acknowledgements from tools/, so tools/ reads these
// without importing call-control/ back.

import type { HandoffSnapshot } from '@vap/messages';
import type { ToolCall } from '@vap/llm';
import type { CurrentTurn } from './conversation-port';

/** What a tool may do to the call, bound to the turn it runs in. */
export interface CallControl {
  /*
   * The tools that end the call settle after the call has ended: `decided` is told the outcome as soon as it is
   * known, before the hang-up, so the invocation is recorded while the call's reports are still taken.
   */
  /** The turn ends the call: the end-call message, then the hang-up. */
  endCall(): Promise<void>;
  /** The number joins the do-not-call list (`decided`: whether it did), then a goodbye and the hang-up. */
  optOut(decided: (listed: boolean) => void): Promise<void>;
  /**
   * Transfer to a human by the agent's transfer_mode (transfer message first; `decided`: whether the caller was
   * handed over): cold through the carrier, or warm (the human briefed first, the caller on hold). False when it
   * did not go through and the caller is still on the line (or, warm without handback, being said goodbye to).
   */
  transfer(to: string, reason: string, decided: (ok: boolean) => void): Promise<boolean>;
  /**
   * Presses the keys of a send_dtmf call (in-band tones after what the turn said so far, or the carrier's
   * send-digits request); the tool result for the model.
   */
  pressKeys(call: ToolCall): Promise<string>;
  /** Awaits `work`, speaking the agent's tool acknowledgement if it runs past delay_ms; throws if the turn is given up. */
  withAck<T>(work: Promise<T>): Promise<T>;
  /**
   * Hands the call to the handoff's agent once what the turn said has played: the next agent takes over when the
   * turn ends. `result` is the tool result for the model (why not, when it was not handed off).
   */
  /** `summary`: what the model wrote for the next agent in its handoff call ('' when nothing). */
  handOff(
    handoff: HandoffSnapshot,
    reason: string,
    summary: string,
  ): Promise<{ handedOff: boolean; result: string }>;
}

/** What call control needs of the turn it acts in. */
export interface ControlledTurn extends CurrentTurn {
  /** Adds a sentence to the turn's reply. */
  say(sentence: string): void;
  /** Ends the reply's line and waits until everything the turn said has played (or was cut). */
  finishSaying(): Promise<void>;
  /** Plays audio as a line of its own after what the turn said so far; true when all of it played. */
  play(label: string, audio: Int16Array): Promise<boolean>;
  /** Said once the turn's tool results are in the history. */
  followUp(text: string): void;
  /** A TTS failure of the turn's reply, if one came. */
  readonly failure: Error | null;
}

/** Call control for each tool's turn, as the tool runner hands it out (CallControls). */
export interface TurnControls {
  forTurn(tool: string, turn: ControlledTurn): CallControl;
}
