// The call's variables: the pre-call ones, and what partner functions have set since. The system prompt is
// rendered again with them, so the prompt's {{name}} placeholders (and the end-call, transfer and voicemail
// messages) read the new values from the next model round on.

import { CALL_VARIABLES_MAX_BYTES, type AgentSnapshot } from '@vap/messages';
import type { ChatMessage } from '@vap/llm';
import { buildSystemPrompt } from './prompt';

export class CallVariables {
  private current: Record<string, unknown>;

  /** `history` starts with the system prompt, which follows the variables. */
  constructor(
    private agent: AgentSnapshot,
    initial: Record<string, unknown> | null | undefined,
    private readonly history: ChatMessage[],
  ) {
    this.current = { ...(initial ?? {}) };
    history[0] = { role: 'system', content: buildSystemPrompt(agent, this.current) };
  }

  get values(): Record<string, unknown> {
    return this.current;
  }

  /** A handoff: `agent`'s prompt, with `values` as the call's variables from now on. */
  useAgent(agent: AgentSnapshot, values: Record<string, unknown>): void {
    this.agent = agent;
    this.current = { ...values };
    this.history[0] = { role: 'system', content: buildSystemPrompt(agent, this.current) };
  }

  /** Merges `values` in; false when that would take them past CALL_VARIABLES_MAX_BYTES, and nothing changed. */
  set(values: Record<string, unknown>): boolean {
    const merged = { ...this.current, ...values };
    // The calls service keeps them to the same bound: what the prompt reads is what the session shows.
    if (Buffer.byteLength(JSON.stringify(merged)) > CALL_VARIABLES_MAX_BYTES) return false;
    this.current = merged;
    this.history[0] = { role: 'system', content: buildSystemPrompt(this.agent, this.current) };
    return true;
  }
}
