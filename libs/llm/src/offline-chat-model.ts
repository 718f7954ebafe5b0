import { AgentTool } from './agent-tools';
import { ChatDelta, ChatMessage, ChatRequest, ToolCall } from './chat-model';
import { AnalysisAnswer, AnalysisInput, analyzeOffline } from './analysis';
import { ExtractionInput } from './extraction';
import { LanguageModel } from './language-model';
import { LlmError } from './llm-error';
import { extractOffline } from './offline-extraction';
import {
  describedFunctionCall,
  isPartnerFunction,
  namedFunctionCall,
  spokenAnswer,
} from './offline-functions';
import { clipWords, sentences } from './text';

/** Spoken replies stay short: the default sandbox call, speech included, finishes in 20 s of wall time. */
const MAX_REPLY_WORDS = 20;
/** A grounded answer may quote a little more of the knowledge base. */
const MAX_GROUNDED_WORDS = 40;

const GOODBYE = /\b(good ?bye|bye(-bye)?|that'?s all|that is all|no,? thanks?|no,? thank you)\b/i;
const HUMAN = /\b(human|person|agent|representative|manager|operator|supervisor|transfer(red)?)\b/i;
const QUESTION_START = /^(what|how|when|where|why|which|who|can|could|would|do|does|is|are)\b/i;
const FAILED = /\b(fail(ed|ure)?|error|could not|couldn'?t|unable|refused|not transferred)\b/i;

/** Caller key presses as the voice service hands them over: `[keypad] 4711 #`. */
const KEYPAD_INPUT = /^\[keypad\]((?:\s+[0-9A-D*#w]+)*)\s*$/;
/** A menu's options, either way round: "press 2 for sales", "for billing, press 3". */
const MENU_PRESS_FOR =
  /\bpress\s+([0-9*#])\s+(?:for|to)\s+([a-z][a-z ]*?)(?=\s*(?:[,.;!?]|\bor\b|\bpress\b|$))/gi;
const MENU_FOR_PRESS = /\bfor\s+([a-z][a-z ]*?),?\s+press\s+([0-9*#])\b/gi;
/** Words of an option that say nothing about where it leads. */
const MENU_FILLER = new Set([
  'the',
  'a',
  'an',
  'to',
  'our',
  'your',
  'speak',
  'talk',
  'with',
  'reach',
  'for',
  'and',
  'of',
  'in',
  'all',
  'other',
  'more',
]);

/**
 * The key of the menu option the agent is after: the first option the other side reads out ("press 2 for sales")
 * one of whose words (filler aside) the agent's prompt names.
 */
function menuChoice(said: string, prompt: string): string | null {
  const wanted = new Set(prompt.toLowerCase().match(/[a-z]+/g) ?? []);
  const options: { key: string; topic: string; at: number }[] = [];
  for (const m of said.matchAll(MENU_PRESS_FOR)) options.push({ key: m[1], topic: m[2], at: m.index });
  for (const m of said.matchAll(MENU_FOR_PRESS)) options.push({ key: m[2], topic: m[1], at: m.index });
  options.sort((a, b) => a.at - b.at);
  for (const option of options) {
    const words = option.topic
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length > 2 && !MENU_FILLER.has(w));
    if (words.some((word) => wanted.has(word))) return option.key;
  }
  return null;
}

function isQuestion(text: string): boolean {
  const t = text.trim();
  return /\?\s*$/.test(t) || QUESTION_START.test(t);
}

/**
 * The deterministic engine used when no LLM server is configured. Rule-based, no network, the same answer
 * for the same chat: a tool call when the caller's words call for an offered tool (goodbye -> end_call,
 * a human -> transfer_call, a question -> search_knowledge_base, a line that names a partner's function -> that
 * function, its arguments read from the line, and a line about one (its description and parameters) holding
 * every argument it requires -> that function too), a phone menu's option the agent's prompt names ("press 2 for
 * sales" to an agent whose prompt mentions sales) -> send_dtmf with its key), an acknowledgement of the keys a
 * caller pressed ("[keypad] 4711 #" -> "Thank you. I have the number 4 7 1 1."), an answer grounded in a tool's
 * result (nothing after send_dtmf: a menu needs no answer), else a short reply grounded in the agent's prompt.
 * Text streams word by word, like a real model's deltas.
 */
export class OfflineChatModel implements LanguageModel {
  readonly model = 'offline-rules-v1';

  async *stream(req: ChatRequest, signal?: AbortSignal): AsyncGenerator<ChatDelta, void, undefined> {
    const turn = decide(req);
    if (typeof turn !== 'string') {
      checkAborted(signal);
      yield { type: 'tool_call', call: turn };
      return;
    }
    // Word by word, each word with the space before it, so joined deltas are exactly the reply; an empty reply
    // (after keys pressed for a menu) is no delta at all.
    for (const piece of turn ? turn.split(/(?=\s)/) : []) {
      checkAborted(signal);
      yield { type: 'text', text: piece };
    }
  }

  async extract(input: ExtractionInput): Promise<Record<string, unknown>> {
    return extractOffline(input);
  }

  async analyze(input: AnalysisInput): Promise<AnalysisAnswer> {
    return analyzeOffline(input);
  }
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new LlmError('the LLM request was aborted', 'aborted');
}

/** The turn: a tool call, or the reply's text. */
function decide(req: ChatRequest): ToolCall | string {
  const last = req.messages[req.messages.length - 1];
  if (last?.role === 'tool') return afterToolResult(req.messages, last);
  const offered = new Set(req.tools.map((t) => t.name));
  const said = last?.role === 'user' ? last.content.trim() : '';
  if (said) {
    const id = `call_offline_${req.messages.length}`;
    const keys = KEYPAD_INPUT.exec(said);
    if (keys) {
      // The digits, then the terminator that ended the entry (a part of its own), if any.
      const parts = keys[1].trim().split(/\s+/).filter(Boolean);
      if (parts.length && /^[#*]$/.test(parts[parts.length - 1])) parts.pop();
      const digits = parts.join('');
      if (!digits) return 'Thank you.';
      return `Thank you. I have the number ${digits.split('').join(' ')}.`;
    }
    // Naming a function is the plainest ask there is: it comes before the other rules.
    const named = namedFunctionCall(said, req.tools, id);
    if (named) return named;
    if (offered.has(AgentTool.sendDtmf)) {
      const prompt = req.messages.find((m) => m.role === 'system')?.content ?? '';
      const key = menuChoice(said, prompt);
      if (key !== null) return { id, name: AgentTool.sendDtmf, arguments: { digits: key } };
    }
    const asksHuman = HUMAN.test(said);
    const asks = isQuestion(said);
    if (asksHuman && offered.has(AgentTool.transferCall))
      return { id, name: AgentTool.transferCall, arguments: { reason: 'the caller asked for a human' } };
    if (GOODBYE.test(said) && !asks && !asksHuman) {
      if (offered.has(AgentTool.endCall))
        return { id, name: AgentTool.endCall, arguments: { reason: 'the caller said goodbye' } };
      return 'Thank you for your time. Goodbye.';
    }
    // A line about a function (its description, its parameters) that holds what the function needs.
    const described = describedFunctionCall(said, req.tools, id);
    if (described) return described;
    if (asks && offered.has(AgentTool.searchKnowledgeBase))
      return { id, name: AgentTool.searchKnowledgeBase, arguments: { query: said } };
  }
  return fromPrompt(req.messages, said);
}

/** A short reply in the agent's own words: who it is, from the first sentence of its prompt. */
function fromPrompt(messages: ChatMessage[], said: string): string {
  const prompt = messages.find((m) => m.role === 'system')?.content ?? '';
  const purpose = sentences(prompt)[0] ?? '';
  const self =
    purpose.replace(/^you are\b/i, 'I am').replace(/^your\b/i, 'My') || 'I am here to help you today.';
  const opener = !said ? '' : isQuestion(said) ? 'Good question.' : 'Thank you.';
  return clipWords(`${opener} ${self}`, MAX_REPLY_WORDS);
}

function afterToolResult(messages: ChatMessage[], result: Extract<ChatMessage, { role: 'tool' }>): string {
  const tool = messages
    .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
    .find((c) => c.id === result.tool_call_id)?.name;
  if (tool === AgentTool.searchKnowledgeBase) {
    const facts = sentences(result.content).slice(0, 2).join(' ');
    if (!facts) return 'I am sorry, I could not find anything about that.';
    return clipWords(`Here is what I can tell you: ${facts}`, MAX_GROUNDED_WORDS);
  }
  // Keys pressed for a menu: nothing to say to a machine; its next prompt comes as the other side's words.
  if (tool === AgentTool.sendDtmf)
    return FAILED.test(result.content) || /^Not sent/.test(result.content)
      ? 'I am sorry, that did not work.'
      : '';
  if (isPartnerFunction(tool)) return spokenAnswer(result.content);
  if (FAILED.test(result.content)) return 'I am sorry, that did not work.';
  return 'Done. Is there anything else I can help with?';
}
