// The tools the agent's model may call during a call: one unit per tool (tool.ts), asked of the registry.
// A new built-in tool is an entry of the agent tool catalog (BUILTIN_TOOL_CATALOG in @vap/messages: its name,
// description, parameters and when it is offered) and a ConversationTool added to BUILTIN_TOOLS (builtin.ts) that
// runs it; its name goes to the offline engine's built-in names when the engine has a rule of its own for it. A
// tool that acts on the call (ends, transfers, presses keys) asks it of its turn's control (ToolTurn.control,
// call-control/), where every call effect is implemented once.
export type { ConversationTool, ToolTurn, ToolRun, ToolInvocation, ToolKind } from './tool';
export { ToolRegistry, conversationTools } from './registry';
export { BUILTIN_TOOLS, builtinTool, isBuiltinTool } from './builtin';
export { customFunctionTool, customFunctionResult, asyncPendingResult } from './custom-function';
export { toolAckPhrase } from './acknowledgement';
export { formatKnowledgeResults, KNOWLEDGE_RESULT_LIMIT } from './knowledge-results';
export { END_CALL_TOOL, TRANSFER_CALL_TOOL, SEARCH_KNOWLEDGE_TOOL, OPT_OUT_TOOL } from './names';
