/**
 * Handoffs between agents (squads): an agent may hand its call to another agent of the same account, through a
 * handoff_to_<name> tool per allowed destination. What the next agent receives of the conversation is chosen per
 * destination; the call stays one call (one charge, one transcript, one set of webhooks).
 */

export const HANDOFF_CONTEXT_MODES = ['full', 'last_turns', 'summary'] as const;
export type HandoffContextMode = (typeof HANDOFF_CONTEXT_MODES)[number];

export const HANDOFF_LIMITS = {
  /** Destinations per agent. */
  perAgent: 8,
  name: /^[a-z][a-z0-9_]{0,31}$/,
  descriptionMax: 500,
  lastTurns: { min: 1, max: 50 },
  /** Variables named per destination. */
  variablesMax: 50,
  variableName: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
  /** Handoffs in one call: a loop between agents ends there (the last agent keeps the call). */
  perCall: 10,
} as const;

/** The default of last_turns when the mode is last_turns and none is given. */
export const HANDOFF_LAST_TURNS_DEFAULT = 4;

/** One destination as the agent's record holds it (handoffs). */
export interface HandoffConfig {
  /** The tool's name is handoff_to_<name>. */
  name: string;
  /** When to hand off, for the model. */
  description: string;
  /** The next agent (an agent of the same account). */
  agent_id: string;
  /** What the next agent receives: the whole conversation, its last turns, or a summary made at the handoff. */
  context_mode: HandoffContextMode;
  /** With last_turns: how many of the last caller and agent messages; null otherwise. */
  last_turns: number | null;
  /** The call variables that pass to the next agent; null: all of them. */
  variables: string[] | null;
}

/** A destination as a call's agent snapshot carries it. */
export interface HandoffSnapshot {
  name: string;
  description: string;
  agentId: string;
  contextMode: HandoffContextMode;
  lastTurns: number | null;
  variables: string[] | null;
}

export function handoffSnapshotOf(config: HandoffConfig): HandoffSnapshot {
  return {
    name: config.name,
    description: config.description,
    agentId: config.agent_id,
    contextMode: config.context_mode,
    lastTurns: config.last_turns,
    variables: config.variables,
  };
}

/** The model-facing tool name of a destination. */
export function handoffToolName(name: string): string {
  return `handoff_to_${name}`;
}

/** One stretch of a call held by one agent (a call's session segments; empty until the first handoff). */
export interface CallSegment {
  agent_id: string;
  agent_name: string | null;
  started_at: string;
  /** null for the agent holding the call now, or that held it when it ended. */
  ended_at: string | null;
  /** Why this agent handed the call on (the model's reason); null for the last segment. */
  handoff_reason: string | null;
}
