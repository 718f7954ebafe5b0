// The Anthropic Messages API wire format (anthropic-version 2023-06-01, https://docs.anthropic.com/en/api/messages):
// how our messages and tools are sent, and how a streamed reply's events become text, tool calls and usage.
import type { ChatMessage, ChatUsage, ToolCall, ToolSpec } from '../chat-model';
import { LlmError } from '../llm-error';

/** The `anthropic-version` header every request carries. */
export const ANTHROPIC_VERSION = '2023-06-01';

export type AnthropicContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** What the Messages API takes of a conversation: the system prompt apart, then user and assistant turns. */
export interface AnthropicConversation {
  system?: string;
  messages: AnthropicMessage[];
}

/**
 * Our chat as the Messages API wants it: system messages joined into the top-level `system` (it has no system
 * role), tool calls as assistant `tool_use` blocks, tool results as user `tool_result` blocks, and consecutive
 * turns of one role merged into one (all results of one assistant turn must follow it in a single user turn).
 * Empty text is left out: the API refuses empty text blocks.
 */
export function toAnthropicConversation(messages: ChatMessage[]): AnthropicConversation {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  const add = (role: AnthropicMessage['role'], blocks: AnthropicContentBlock[]) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        if (m.content.trim()) system.push(m.content);
        break;
      case 'user':
        add('user', m.content ? [{ type: 'text', text: m.content }] : []);
        break;
      case 'assistant':
        add('assistant', [
          ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
          ...(m.tool_calls ?? []).map((c): AnthropicContentBlock => ({
            type: 'tool_use',
            id: c.id,
            name: c.name,
            input: c.arguments,
          })),
        ]);
        break;
      case 'tool':
        add('user', [{ type: 'tool_result', tool_use_id: m.tool_call_id, content: m.content }]);
        break;
    }
  }
  return { ...(system.length ? { system: system.join('\n\n') } : {}), messages: out };
}

export function toAnthropicTools(tools: ToolSpec[]): AnthropicTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
}

/** The usage object of message_start (input) and message_delta (output, cumulative). */
export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** One streamed event's data (its `type` repeats the SSE event name). */
export interface AnthropicStreamEvent {
  type?: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string; text?: string; input?: unknown };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

/** The HTTP status Anthropic documents for each error type (https://docs.anthropic.com/en/api/errors). */
export const ANTHROPIC_ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export type StreamStep =
  | { type: 'text'; text: string }
  | { type: 'done'; calls: ToolCall[] }
  | { type: 'error'; errorType: string; message: string };

/**
 * Follows one streamed reply: text deltas as they come, tool_use blocks assembled from their input_json_delta
 * pieces, the input tokens of message_start and the output tokens of the last message_delta. Thinking blocks and
 * pings carry nothing for the caller.
 */
export class AnthropicStreamReader {
  private readonly blocks = new Map<number, { id: string; name: string; json: string; input: unknown }>();
  private readonly finished: ToolCall[] = [];
  private inputTokens: number | null = null;
  private outputTokens: number | null = null;

  /** What this event means for the caller, if anything. Throws LlmError on a tool call that does not parse. */
  read(event: AnthropicStreamEvent): StreamStep | null {
    switch (event.type) {
      case 'message_start': {
        const u = event.message?.usage;
        if (u && typeof u.input_tokens === 'number')
          this.inputTokens =
            u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
        if (u && typeof u.output_tokens === 'number') this.outputTokens = u.output_tokens;
        return null;
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block?.type === 'tool_use')
          this.blocks.set(event.index ?? 0, {
            id: block.id ?? '',
            name: block.name ?? '',
            json: '',
            input: block.input,
          });
        else if (block?.type === 'text' && block.text) return { type: 'text', text: block.text };
        return null;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta?.type === 'text_delta' && delta.text) return { type: 'text', text: delta.text };
        if (delta?.type === 'input_json_delta') {
          const block = this.blocks.get(event.index ?? 0);
          if (block) block.json += delta.partial_json ?? '';
        }
        return null;
      }
      case 'content_block_stop': {
        const index = event.index ?? 0;
        const block = this.blocks.get(index);
        if (block) {
          this.blocks.delete(index);
          this.finished.push(toolCall(index, block));
        }
        return null;
      }
      case 'message_delta':
        if (typeof event.usage?.output_tokens === 'number') this.outputTokens = event.usage.output_tokens;
        if (typeof event.usage?.input_tokens === 'number') this.inputTokens = event.usage.input_tokens;
        return null;
      case 'message_stop':
        return { type: 'done', calls: this.finished.splice(0) };
      case 'error':
        return {
          type: 'error',
          errorType: event.error?.type ?? 'error',
          message: event.error?.message ?? 'unknown error',
        };
      default:
        // ping, and event types added later (the API's versioning policy says to ignore them).
        return null;
    }
  }

  /** The reply's tokens, once both counts were reported. */
  usage(): ChatUsage | null {
    if (this.inputTokens === null || this.outputTokens === null) return null;
    return { inputTokens: this.inputTokens, outputTokens: this.outputTokens };
  }
}

function toolCall(
  index: number,
  block: { id: string; name: string; json: string; input: unknown },
): ToolCall {
  if (!block.name) throw new LlmError(`tool_use block ${index} has no name`, 'protocol');
  let input: unknown = block.input;
  if (block.json.trim()) {
    try {
      input = JSON.parse(block.json);
    } catch {
      throw new LlmError(
        `tool_use ${block.name} has input that is not valid JSON: ${block.json.slice(0, 200)}`,
        'protocol',
      );
    }
  }
  input ??= {};
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new LlmError(`tool_use ${block.name} has input that is not a JSON object`, 'protocol');
  return { id: block.id || `toolu_${index}`, name: block.name, arguments: input as Record<string, unknown> };
}

/** The text of a non-streamed message (`content` blocks of type text, joined). */
export function messageText(body: unknown): string | null {
  const content = (body as { content?: unknown })?.content;
  if (!Array.isArray(content)) return null;
  return content
    .filter((b): b is { type: 'text'; text: string } => b?.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('');
}
