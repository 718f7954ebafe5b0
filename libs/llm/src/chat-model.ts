// The agent's language model during a live call: a streaming chat with tools, behind one interface so an
// OpenAI-compatible server and the deterministic offline engine are interchangeable.

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments. */
  arguments: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function the model may call (OpenAI `tools[].function`). */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** Who the conversation is with: a partner's own model server gets it with every request. */
export interface ChatCallContext {
  callId: string;
  variables: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Sampling temperature; the offline engine ignores it. */
  temperature?: number;
  /** Longest reply, in tokens (the agent's model.max_tokens); the provider's default when absent. */
  maxTokens?: number;
  topP?: number;
  call?: ChatCallContext;
}

/** Tokens one reply cost, as the provider reported them. */
export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * What the model streams: text as it comes, each tool call once its arguments are complete, and (once, when the
 * provider reports it, usually last) the reply's token usage.
 */
export type ChatDelta =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: ChatUsage };

export interface ChatModel {
  /** Reported in logs and metrics. */
  readonly model: string;
  /** Streams one assistant turn. Throws (or the iterator throws) when the provider fails or the signal aborts. */
  stream(request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatDelta>;
}
