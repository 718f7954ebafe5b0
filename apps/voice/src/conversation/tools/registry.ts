// The tools of one call: the built-in ones the agent enables, then the partner's functions attached to it.

import type { AgentSnapshot } from '@vap/messages';
import type { ToolSpec } from '@vap/llm';
import { BUILTIN_TOOLS, isBuiltinTool } from './builtin';
import { customFunctionTool } from './custom-function';
import type { ConversationTool } from './tool';

export class ToolRegistry {
  private readonly byName: ReadonlyMap<string, ConversationTool>;
  /** What the model is offered, in order. */
  readonly specs: ToolSpec[];

  constructor(readonly agent: AgentSnapshot) {
    const tools = [
      ...BUILTIN_TOOLS,
      // A function may never take a built-in tool's name (the agents service refuses it); a call that carries
      // one anyway keeps the built-in tool.
      ...(agent.customFunctions ?? []).filter((f) => !isBuiltinTool(f.name)).map(customFunctionTool),
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
