// The tools of one call: the built-in ones the agent enables, its handoffs to other agents, then the partner's
// functions attached to it. After a handoff the next agent's tools take their place (useAgent).

import type { AgentSnapshot } from '@vap/messages';
import type { ToolSpec } from '@vap/llm';
import { BUILTIN_TOOLS, isBuiltinTool } from './builtin';
import { customFunctionTool } from './custom-function';
import { handoffTool } from './handoff';
import type { ConversationTool } from './tool';

export class ToolRegistry {
  private byName: ReadonlyMap<string, ConversationTool> = new Map();
  /** What the model is offered, in order. */
  specs: ToolSpec[] = [];

  constructor(agent: AgentSnapshot) {
    this.useAgent(agent);
  }

  /** The tools of `agent` (the call's, or the one it was handed to) are offered from now on. */
  useAgent(agent: AgentSnapshot): void {
    const handoffs = (agent.handoffs ?? []).map(handoffTool);
    const taken = (name: string) => isBuiltinTool(name) || handoffs.some((h) => h.name === name);
    const tools = [
      ...BUILTIN_TOOLS,
      ...handoffs,
      // A function may never take a built-in tool's name (the agents service refuses it); a call that carries
      // one anyway keeps the built-in tool (or the handoff).
      ...(agent.customFunctions ?? []).filter((f) => !taken(f.name)).map(customFunctionTool),
    ].filter((tool) => tool.offered(agent));
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.specs = [...this.byName.values()].map((tool) => tool.spec(agent));
  }

  /** The offered tool of that name, or undefined (the model asked for a tool it was not offered). */
  get(name: string): ConversationTool | undefined {
    return this.byName.get(name);
  }
}

/** The tool specs (OpenAI function style) the agent offers its model. */
export function conversationTools(agent: AgentSnapshot): ToolSpec[] {
  return new ToolRegistry(agent).specs;
}
