// The OpenAI chat-completions wire format: how our messages and tools are sent, and what a streamed
// `chat.completion.chunk` carries.
import { ChatMessage, ToolCall, ToolSpec } from './chat-model';
import { LlmError } from './llm-error';

export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** One `delta.tool_calls[]` fragment: the first of a call carries its id and name, later ones argument text. */
export interface ToolCallFragment {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

export interface ChatCompletionChunk {
  choices?: {
    index?: number;
    delta?: { role?: string; content?: string | null; tool_calls?: ToolCallFragment[] };
    finish_reason?: string | null;
  }[];
  /** The reply's tokens: in the last chunk (after finish_reason, with no choices) when stream_options asked. */
  usage?: ChatCompletionUsage | null;
  /** Groq reports usage here too. */
  x_groq?: { usage?: ChatCompletionUsage | null };
  error?: { message?: string };
}

export interface ChatCompletionUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

export function toOpenAiMessages(messages: ChatMessage[]): OpenAiMessage[] {
  return messages.map((m): OpenAiMessage => {
    if (m.role !== 'assistant') return m;
    if (!m.tool_calls?.length) return { role: 'assistant', content: m.content ?? '' };
    return {
      role: 'assistant',
      content: m.content,
      tool_calls: m.tool_calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      })),
    };
  });
}

export function toOpenAiTools(tools: ToolSpec[]): OpenAiTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/**
 * Rebuilds the tool calls of one streamed turn from their fragments, keyed by index: ids and names arrive
 * once, argument JSON arrives in pieces that only parse once the call is complete.
 */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();

  add(fragment: ToolCallFragment): void {
    const index = fragment.index ?? 0;
    const call = this.calls.get(index) ?? { id: '', name: '', args: '' };
    if (fragment.id && !call.id) call.id = fragment.id;
    if (fragment.function?.name && !call.name) call.name = fragment.function.name;
    if (fragment.function?.arguments) call.args += fragment.function.arguments;
    this.calls.set(index, call);
  }

  /** The complete calls in index order; none are kept. Throws LlmError on a nameless call or bad JSON. */
  take(): ToolCall[] {
    const done = [...this.calls.entries()].sort(([a], [b]) => a - b);
    this.calls.clear();
    return done.map(([index, c]) => {
      if (!c.name) throw new LlmError(`tool call ${index} has no function name`, 'protocol');
      let args: unknown;
      try {
        args = c.args.trim() ? JSON.parse(c.args) : {};
      } catch {
        throw new LlmError(
          `tool call ${c.name} has arguments that are not valid JSON: ${c.args.slice(0, 200)}`,
          'protocol',
        );
      }
      if (!args || typeof args !== 'object' || Array.isArray(args))
        throw new LlmError(`tool call ${c.name} has arguments that are not a JSON object`, 'protocol');
      return { id: c.id || `call_${index}`, name: c.name, arguments: args as Record<string, unknown> };
    });
  }
}
