import { ToolSpec } from './chat-model';

/** The tools an agent may be given during a call, by the names the model sees. */
export const AgentTool = {
  endCall: 'end_call',
  transferCall: 'transfer_call',
  searchKnowledgeBase: 'search_knowledge_base',
  sendDtmf: 'send_dtmf',
} as const;
export type AgentToolName = (typeof AgentTool)[keyof typeof AgentTool];

const reasonParameters = {
  type: 'object',
  properties: { reason: { type: 'string', description: 'Why, in a few words' } },
  required: [],
  additionalProperties: false,
};

/** Appends the agent's own instructions (end_call_instructions, transfer_instructions) to a tool's description. */
function withInstructions(description: string, instructions?: string | null): string {
  const extra = instructions?.trim();
  return extra ? `${description} ${extra}` : description;
}

/** Offered when the agent's end_call_enabled is set. */
export function endCallTool(instructions?: string | null): ToolSpec {
  return {
    name: AgentTool.endCall,
    description: withInstructions(
      'Hang up the call when the conversation is over, e.g. the caller says goodbye or has nothing more to discuss.',
      instructions,
    ),
    parameters: reasonParameters,
  };
}

/** Offered when the agent's transfer_enabled is set and it has a transfer number. */
export function transferCallTool(instructions?: string | null): ToolSpec {
  return {
    name: AgentTool.transferCall,
    description: withInstructions(
      'Transfer the caller to a human, e.g. when they ask for a person, an agent or a manager.',
      instructions,
    ),
    parameters: reasonParameters,
  };
}

/** Offered when documents are linked to the agent. */
export function searchKnowledgeBaseTool(): ToolSpec {
  return {
    name: AgentTool.searchKnowledgeBase,
    description:
      "Search the agent's knowledge base for facts that answer the caller's question. Use it before answering " +
      'questions about products, prices, policies or anything the instructions do not state.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look up, in the caller’s words' } },
      required: ['query'],
      additionalProperties: false,
    },
  };
}
