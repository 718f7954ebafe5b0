// The offline engine's rules for a partner's function (a tool it has no rule of its own for): the caller's line
// names the function, or says what its description and parameters are about (and holds what it needs); the
// arguments are read from the line. Documented in docs/voice.md.

import {
  BUILTIN_TOOL_NAMES,
  END_CALL_TOOL,
  handoffToolName,
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
  description: string;
}

function propertiesOf(tool: ToolSpec): Property[] {
  const props = tool.parameters.properties;
  if (!props || typeof props !== 'object') return [];
  return Object.entries(props as Record<string, { type?: unknown; description?: unknown }>).map(
    ([key, schema]) => ({
      key,
      type: typeof schema?.type === 'string' ? schema.type : undefined,
      description: typeof schema?.description === 'string' ? schema.description : '',
    }),
  );
}

function requiredOf(tool: ToolSpec): string[] {
  const required = tool.parameters.required;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
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
  const args = pairsFrom(rest, properties);
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

/** The `key is value` / `key: value` pairs of a line for the schema's properties. */
function pairsFrom(rest: string, properties: Property[]): Record<string, unknown> {
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

/** Words that say nothing of what a function is about: asking, helping, looking things up, pronouns. */
const FILLER = new Set(
  (
    'a an the and or but of to for in on at by with from about into as is are was were be been am do does did ' +
    'can could would should will shall may might must i me my mine you your yours we our us it its this that ' +
    'these those there here what when where why how which who whom whose please thanks thank hello hi hey yes ' +
    'no not want wanted need needs like would get gets got give look looks looking up find check tell know ' +
    'let make makes use uses help call calls caller say says said some any all one if then than so just also ' +
    'has have had his her their them they he she own out now today function tool'
  ).split(' '),
);

/** A word's stem, enough to meet "orders", "ordered" and "ordering" at "order". */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/'s$/, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|sh|ch|x)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  return w;
}

/** The stems of a text's words that say what it is about (filler and one- or two-letter words left out). */
export function topicStems(text: string): Set<string> {
  const stems = new Set<string>();
  for (const word of wordsOf(text)) {
    if (word.length < 3 || /^\d+$/.test(word) || FILLER.has(word)) continue;
    stems.add(stem(word));
  }
  return stems;
}

/** A parameter that holds a number said as digits: a number, or a string named or described as an id or code. */
function takesDigits(prop: Property): boolean {
  if (prop.type === 'number' || prop.type === 'integer') return true;
  if (prop.type !== undefined && prop.type !== 'string') return false;
  return /\b(number|no|id|code|reference|ref|phone|pin|zip|postcode|digits|account|invoice|ticket|booking)\b/i.test(
    `${wordsOf(prop.key).join(' ')} ${prop.description}`,
  );
}

/** Digits said as words. */
const DIGIT_WORDS: Readonly<Record<string, string>> = {
  zero: '0',
  oh: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};
/** Two or more digits said one by one ("one two three"), as recognisers write a spoken number. */
const SPOKEN_DIGITS =
  /\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?:[\s-]+(?:zero|oh|one|two|three|four|five|six|seven|eight|nine))+\b/i;

/**
 * The line's number: its first run of numerals (spaces and hyphens between them kept out: "12 34" is 1234), else
 * of digits said as words (one lone word is not a number); null without one.
 */
function digitsOf(said: string): string | null {
  const run = /\d(?:[\d\s-]*\d)?/.exec(said);
  if (run) return run[0].replace(/[\s-]/g, '');
  const spoken = SPOKEN_DIGITS.exec(said);
  return spoken
    ? spoken[0]
        .toLowerCase()
        .split(/[\s-]+/)
        .map((w) => DIGIT_WORDS[w])
        .join('')
    : null;
}

/**
 * A call of the offered partner function the caller's line is about, when no line names one: the function whose
 * name, description and parameters (names and descriptions) share the most topic words with the line, stems
 * compared ("Where is my order 12345?" is about `lookup_order`, "Look up an order by its number"); at least one
 * of them from its name or description. Its arguments: `key is value` pairs, then the line's digits for a number
 * or id parameter. It is called only when every required parameter was found, so a line about a function that
 * lacks what the function needs ("What is my order status?") goes on to the other rules.
 */
export function describedFunctionCall(said: string, tools: ToolSpec[], id: string): ToolCall | null {
  const line = topicStems(said);
  if (line.size === 0) return null;
  let best: { call: ToolCall; score: number } | null = null;
  for (const tool of tools) {
    // The platform's own tools (send_dtmf, send_sms, handoffs) have rules of their own, or none: never by topic.
    if (BUILTIN_TOOL_NAMES.includes(tool.name) || tool.name.startsWith(handoffToolName(''))) continue;
    const properties = propertiesOf(tool);
    const about = topicStems(`${wordsOf(tool.name).join(' ')} ${tool.description}`);
    const all = new Set(about);
    for (const p of properties)
      for (const s of topicStems(`${wordsOf(p.key).join(' ')} ${p.description}`)) all.add(s);
    if (![...line].some((s) => about.has(s))) continue;
    const score = [...line].filter((s) => all.has(s)).length;
    if (best && score <= best.score) continue;
    const args = pairsFrom(said, properties);
    const digits = digitsOf(said);
    for (const p of properties) {
      if (p.key in args || !digits || !takesDigits(p)) continue;
      args[p.key] = coerce(digits, p.type);
    }
    if (!requiredOf(tool).every((r) => r in args)) continue;
    best = { call: { id, name: tool.name, arguments: args }, score };
  }
  return best?.call ?? null;
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
