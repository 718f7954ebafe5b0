// The offline engine's rule for a partner's function (a tool it has no rule of its own for): the caller's line
// names the function, and the arguments are read from the line. Documented in docs/voice.md.

import {
  END_CALL_TOOL,
  literalRegExp,
  type LiteralRegExpShape,
  OPT_OUT_TOOL,
  SEARCH_KNOWLEDGE_TOOL,
  TRANSFER_CALL_TOOL,
} from '@vap/messages';
import type { ToolCall, ToolSpec } from './chat-model';
import { clipWords } from './text';

/** The tools the engine has rules of its own for; every other offered tool is a partner's function. */
const BUILT_IN = new Set<string>([END_CALL_TOOL, TRANSFER_CALL_TOOL, SEARCH_KNOWLEDGE_TOOL, OPT_OUT_TOOL]);

/** A name's words: `check_order` and `checkOrder` are both "check order". */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** A regex matching the words in order, as whole words, any spaces, underscores or hyphens between them. */
function wordsRegExp(words: string[], around: Pick<LiteralRegExpShape, 'before' | 'after'> = {}): RegExp {
  return literalRegExp(words, {
    join: 'sequence',
    separator: '[\\s_-]+',
    before: `${around.before ?? ''}\\b`,
    after: `\\b${around.after ?? ''}`,
    flags: 'i',
  });
}

interface Property {
  key: string;
  type: string | undefined;
}

function propertiesOf(tool: ToolSpec): Property[] {
  const props = tool.parameters.properties;
  if (!props || typeof props !== 'object') return [];
  return Object.entries(props as Record<string, { type?: unknown }>).map(([key, schema]) => ({
    key,
    type: typeof schema?.type === 'string' ? schema.type : undefined,
  }));
}

/** A spoken value as the schema's type asks: a number, a yes/no, else the words as said. */
function coerce(value: string, type: string | undefined): unknown {
  if (type === 'number' || type === 'integer') {
    const n = Number(value.replace(/,/g, ''));
    return Number.isFinite(n) ? n : value;
  }
  if (type === 'boolean') {
    if (/^(yes|true|yeah)$/i.test(value)) return true;
    if (/^(no|false|nope)$/i.test(value)) return false;
  }
  return value;
}

const TRAILING = /[\s.!?]+$/;

/**
 * The arguments in what follows the function's name: `key is value` or `key: value` pairs (the key in words,
 * `order number` for `order_number`), split at commas, semicolons and " and "; without any, a function whose
 * schema has one property takes the rest of the line as its value.
 */
function argumentsFrom(rest: string, tool: ToolSpec): Record<string, unknown> {
  const properties = propertiesOf(tool);
  const args: Record<string, unknown> = {};
  for (const part of rest.split(/[,;]|\band\b/i)) {
    for (const prop of properties) {
      const match = wordsRegExp(wordsOf(prop.key), {
        before: '^\\s*(?:the\\s+)?',
        after: '\\s*(?:\\bis\\b|:|=)\\s*(.+)$',
      }).exec(part);
      if (match) {
        const value = match[1].replace(TRAILING, '').trim();
        if (value) args[prop.key] = coerce(value, prop.type);
        break;
      }
    }
  }
  if (Object.keys(args).length === 0 && properties.length === 1) {
    const value = rest
      .replace(/^[\s,:;-]+/, '')
      .replace(/^(for|with|about)\s+/i, '')
      .replace(TRAILING, '')
      .trim();
    if (value) args[properties[0].key] = coerce(value, properties[0].type);
  }
  return args;
}

/** A call of the first offered partner function the caller's line names, or null. */
export function namedFunctionCall(said: string, tools: ToolSpec[], id: string): ToolCall | null {
  for (const tool of tools) {
    if (BUILT_IN.has(tool.name)) continue;
    const words = wordsOf(tool.name);
    if (words.length === 0) continue;
    const match = wordsRegExp(words).exec(said);
    if (!match) continue;
    const rest = said.slice(match.index + match[0].length);
    return { id, name: tool.name, arguments: argumentsFrom(rest, tool) };
  }
  return null;
}

/** Whether a tool is a partner's function to the engine. */
export function isPartnerFunction(name: string | undefined): boolean {
  return name !== undefined && !BUILT_IN.has(name);
}

/** A partner function's answer as a short spoken line: a JSON object's fields as "key value", else the text. */
export function spokenAnswer(result: string): string {
  // The conversation's note of the variables set is for the model, not the caller.
  const body = result.replace(/\n\(Call variables now set:[^)]*\)\s*$/, '').trim();
  if (/^The request to \S+ is running/.test(body))
    return 'I have asked. I will tell you as soon as I hear back.';
  if (/^The arguments were not valid/.test(body)) return 'I am sorry, I need a few more details for that.';
  if (/^The function failed/.test(body))
    return /The caller has been told/.test(body)
      ? 'Is there anything else I can help with?'
      : 'I am sorry, that did not work.';
  let spoken = body;
  try {
    const value: unknown = JSON.parse(body);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      spoken = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v === null || typeof v !== 'object')
        .map(([k, v]) => `${wordsOf(k).join(' ')} ${String(v)}`)
        .join(', ');
    }
  } catch {
    // Not JSON: the text as the partner wrote it.
  }
  if (!spoken) return 'Done. Is there anything else I can help with?';
  return clipWords(`Done. ${spoken}.`.replace(/\.\.$/, '.'), 20);
}
