// The tools of one call: what the agent tool catalog says the agent offers (offeredTools, @vap/messages: the
// built-in tools its settings and `tools` list allow, its handoffs to other agents, then the partner's functions
// attached to it), each with its runner. After a handoff the next agent's tools take their place (useAgent).

import { handoffToolName, offeredTools, type AgentSnapshot, type OfferedTool } from '@vap/messages';
import type { ToolSpec } from '@vap/llm';
import { builtinTool } from './builtin';
import { customFunctionTool } from './custom-function';
import { handoffTool } from './handoff';
import type { ConversationTool } from './tool';

/** The runner of an offered tool; undefined for a built-in tool the voice service cannot run (never offered). */
function runnerOf(tool: OfferedTool, agent: AgentSnapshot): ConversationTool | undefined {
  switch (tool.kind) {
    case 'builtin':
      return builtinTool(tool.name);
    case 'handoff': {
      const handoff = agent.handoffs?.find((h) => handoffToolName(h.name) === tool.name);
      return handoff && handoffTool(handoff);
    }
    case 'custom': {
      const fn = agent.customFunctions?.find((f) => f.id === tool.functionId);
      return fn && customFunctionTool(fn);
    }
  }
}

export class ToolRegistry {
  private byName: ReadonlyMap<string, ConversationTool> = new Map();
  /** What the model is offered, in order. */
  specs: ToolSpec[] = [];

  constructor(agent: AgentSnapshot) {
    this.useAgent(agent);
  }

  /** The tools of `agent` (the call's, or the one it was handed to) are offered from now on. */
  useAgent(agent: AgentSnapshot): void {
    const offered = offeredTools(agent).flatMap((tool) => {
      const runner = runnerOf(tool, agent);
      return runner ? [{ tool, runner }] : [];
    });
    this.byName = new Map(offered.map(({ runner }) => [runner.name, runner]));
    this.specs = offered.map(({ tool }) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    }));
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
