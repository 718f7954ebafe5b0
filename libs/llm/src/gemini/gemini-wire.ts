// The Gemini API's generateContent wire format (https://ai.google.dev/api/generate-content, v1beta): how our
// messages and tools are sent, and what each streamed GenerateContentResponse carries.
import type { ChatMessage, ToolSpec } from '../chat-model';
import { geminiSchema } from '../realtime/gemini-live';

export interface GeminiPart {
  text?: string;
  /** Set on a thinking model's thought summaries, which are never spoken. */
  thought?: boolean;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { name: string; response: Record<string, unknown> };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiResponseChunk {
  candidates?: { index?: number; content?: { parts?: GeminiPart[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
  };
  error?: { code?: number; message?: string; status?: string };
}

/** Finish reasons of a reply that is whole (or cut at the length asked for); any other is a refusal or a fault. */
export const COMPLETE_FINISH_REASONS = new Set(['STOP', 'MAX_TOKENS']);

/** What a turn with no conversation yet says, since contents may not be empty (the agent speaks first). */
const OPENING_TURN = '(The call has just been connected.)';

/**
 * Our messages as Gemini's request: the leading system messages as `systemInstruction`, the rest as `contents`
 * (user and model turns; a later system message goes in as a note in a user turn, since Gemini has one system
 * instruction). Tool results are `functionResponse` parts named after the call they answer; consecutive turns of
 * one role are merged, as Gemini wants each model turn's function calls answered in the next user turn.
 */
export function toGeminiRequest(messages: ChatMessage[]): {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
} {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const callNames = new Map<string, string>();
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (!parts.length) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'system') {
      if (contents.length) push('user', [{ text: `(Note, not said by the caller: ${m.content})` }]);
      else system.push(m.content);
    } else if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) callNames.set(c.id, c.name);
      push('model', [
        ...(m.content ? [{ text: m.content }] : []),
        ...(m.tool_calls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.arguments } })),
      ]);
    } else if (m.role === 'tool') {
      push('user', [
        {
          functionResponse: {
            name: callNames.get(m.tool_call_id) ?? m.tool_call_id,
            response: { output: m.content },
          },
        },
      ]);
    } else {
      push('user', [{ text: m.content }]);
    }
  }
  if (!contents.length) contents.push({ role: 'user', parts: [{ text: OPENING_TURN }] });
  return {
    ...(system.length ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] } } : {}),
    contents,
  };
}

/** Our tools as one `functionDeclarations` tool, their JSON Schemas as Gemini's Schema subset. */
export function toGeminiTools(tools: ToolSpec[]): Record<string, unknown>[] {
  if (!tools.length) return [];
  return [
    {
      functionDeclarations: tools.map((t) => {
        const parameters = geminiSchema(t.parameters) as Record<string, unknown>;
        // A function without arguments declares no parameters (an OBJECT without properties is refused).
        const props = parameters?.properties as Record<string, unknown> | undefined;
        return {
          name: t.name,
          description: t.description,
          ...(props && Object.keys(props).length ? { parameters } : {}),
        };
      }),
    },
  ];
}
