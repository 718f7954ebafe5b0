import {
  builtinToolDefinition,
  builtinToolSpec,
  END_CALL_TOOL,
  SEARCH_KNOWLEDGE_TOOL,
  SEND_DTMF_TOOL,
  TRANSFER_CALL_TOOL,
} from '@vap/messages';
import { ToolSpec } from './chat-model';

/** The tools an agent may be given during a call, by the names the model sees (the agent tool catalog's). */
export const AgentTool = {
  endCall: END_CALL_TOOL,
  transferCall: TRANSFER_CALL_TOOL,
  searchKnowledgeBase: SEARCH_KNOWLEDGE_TOOL,
  sendDtmf: SEND_DTMF_TOOL,
} as const;
export type AgentToolName = (typeof AgentTool)[keyof typeof AgentTool];

/** A built-in tool as the voice service offers it (the catalog's spec). */
function catalogSpec(name: string): ToolSpec {
  return builtinToolSpec(builtinToolDefinition(name)!);
}

/** Offered when the agent's end_call_enabled is set. */
export function endCallTool(): ToolSpec {
  return catalogSpec(END_CALL_TOOL);
}

/** Offered when the agent's transfer_enabled is set and it has a transfer number. */
export function transferCallTool(): ToolSpec {
  return catalogSpec(TRANSFER_CALL_TOOL);
}

/** Offered when documents are linked to the agent. */
export function searchKnowledgeBaseTool(): ToolSpec {
  return catalogSpec(SEARCH_KNOWLEDGE_TOOL);
}
