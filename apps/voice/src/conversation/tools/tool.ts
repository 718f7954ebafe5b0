// One tool the agent's model may call: what is said while it runs, and what it does. What the model is offered
// of it, and when, is the agent tool catalog's (offeredTools, @vap/messages). The conversation asks the registry (registry.ts) for the call's tools and runs them through this
// interface, built-in and partner tools alike.

import type { AgentSnapshot, VoiceToolCallRecord } from '@vap/messages';
import type { ToolCall } from '@vap/llm';
import type { AgentServices } from '../call-platform';
import type { CallControl } from '../call-control-port';
import type { MediaClock } from '../conversation-port';

export type ToolKind = VoiceToolCallRecord['kind'];

export interface ConversationTool {
  /** The model-facing name (ToolSpec.name). */
  readonly name: string;
  readonly kind: ToolKind;
  /** The partner's function behind a custom tool; null for a built-in one. */
  readonly functionId: string | null;
  /**
   * What the agent says when the tool runs past tool_ack_config.delay_ms in the config's dynamic mode; null:
   * the default phrase, or (for a tool that speaks for itself) nothing.
   */
  readonly ackPhrase: string | null;
  /** Runs one call of the tool in the caller's turn. */
  run(call: ToolCall, turn: ToolTurn): Promise<ToolRun>;
}

/**
 * What a tool gets of the conversation while it runs in a caller's turn: what it may do to the call (control), the
 * call it runs in (context), and its voice in the turn (speech).
 */
export interface ToolTurn {
  /** End the call, transfer it, opt out, press keys, acknowledge a wait (call-control/). */
  readonly control: CallControl;
  readonly context: ToolContext;
  readonly speech: ToolSpeech;
  /** Whether the turn was given up (barge-in, the call ending). */
  readonly abandoned: boolean;
}

/** The call a tool runs in. */
export interface ToolContext {
  readonly agent: AgentSnapshot;
  /** The call's variables as they are now (pre-call variables and what tools have set since). */
  readonly variables: Readonly<Record<string, unknown>>;
  /**
   * Merges values into the call's variables (the prompt reads them from now on); false when that would take them
   * past CALL_VARIABLES_MAX_BYTES, and nothing changed.
   */
  setVariables(values: Record<string, unknown>): boolean;
  /** The agent's knowledge base and the partner's functions. */
  readonly services: AgentServices;
  /** Aborted when the call ends: what the platform pays for stops then. */
  readonly callSignal: AbortSignal;
  /** The call's media clock. */
  readonly clock: Pick<MediaClock, 'now' | 'after'>;
  /**
   * The answer of an async call, arrived after its turn: it joins the conversation at the next model round, and
   * with `speak` the agent speaks about it as soon as it is idle and the caller is not speaking.
   */
  deliverLater(call: ToolCall, result: string, options: { speak: boolean }): void;
  /** Records one invocation on the call's session. */
  record(entry: ToolInvocation): void;
  onError(error: unknown, context: string): void;
}

/** What a tool may say in its turn. */
export interface ToolSpeech {
  /** Adds a line of the tool's own to the reply being spoken in this turn. */
  say(sentence: string): void;
  /** Speaks a line of the agent's own while the turn waits (outside the model's reply). */
  sayAside(text: string): void;
  /**
   * Synthesises a line that may be due later (a function's on_delay) now, so that when it is said it
   * starts on time instead of after the provider's latency, a pause the caller would take as their turn.
   */
  prepare(text: string): void;
}

/** One invocation as the session keeps it (the conversation adds the call's media time). */
export type ToolInvocation = Omit<VoiceToolCallRecord, 'atMs'> & { atMs?: number };

export interface ToolRun {
  /** The tool message the model gets. */
  result: string;
  /** The turn is over (the call ended, was transferred, or the tool said it moved on). */
  stop?: boolean;
  /** Said once the results are in the history (a failed transfer's apology). */
  followUp?: string;
  /**
   * The session's record of the invocation; null when the tool records it itself (an async function, when its
   * answer comes).
   */
  invocation: ToolInvocation | null;
}
