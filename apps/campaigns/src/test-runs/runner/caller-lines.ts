import { ChatMessage, LanguageModel, OfflineChatModel } from '@vap/llm';
import { TEST_LINE_TEXT_MAX, TEST_PAUSE_MS_DEFAULT } from '@vap/api';
import type { ScenarioSnapshot, TestLine } from '../../test-scenarios/test-scenario-row';

/** The conversation so far, as the test caller knows it: what it heard the agent say and what it said. */
export interface Exchange {
  role: 'agent' | 'caller';
  text: string;
}

/** What the caller says next: the next line, or null when it has nothing more to say. */
export interface CallerLines {
  next(conversation: Exchange[], signal?: AbortSignal): Promise<TestLine | null>;
}

/** The caller's answer that means the goal is reached (or the call should end). */
export const END_OF_CALL = 'END_CALL';

/** A scripted caller: the scenario's lines in order, whatever the agent says. */
export class ScriptedLines implements CallerLines {
  private at = 0;

  constructor(private readonly lines: TestLine[]) {}

  async next(): Promise<TestLine | null> {
    return this.lines[this.at++] ?? null;
  }
}

/** The chat that asks a model for a simulated caller's next line. */
export function callerMessages(scenario: ScenarioSnapshot, conversation: Exchange[]): ChatMessage[] {
  const system =
    'You are playing the caller in a test of a voice agent: a person on a phone call with an AI agent. ' +
    `Stay in character.\nWho you are: ${scenario.persona || 'an ordinary caller'}\n` +
    `Your goal on this call: ${scenario.goal || 'get what you called for'}\n` +
    'Answer with only what you say next: one or two short spoken sentences, no stage directions, no quotes. ' +
    `When your goal is reached or the agent has ended the conversation, answer exactly ${END_OF_CALL}.`;
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  // The agent's lines are what the caller is told; the caller's own are the model's earlier answers.
  for (const line of conversation)
    messages.push(
      line.role === 'agent'
        ? { role: 'user', content: line.text }
        : { role: 'assistant', content: line.text },
    );
  if (!conversation.length || conversation[conversation.length - 1].role === 'caller')
    messages.push({ role: 'user', content: '(the agent is silent)' });
  return messages;
}

/**
 * A simulated caller: a chat model writes each line from the persona, the goal and the conversation so far, up to
 * max_turns lines (default: as many as the scenario's lines). The offline engine (no model configured) cannot play
 * a persona, so it says the scenario's lines in order, as a scripted caller would.
 */
export class SimulatedLines implements CallerLines {
  private said = 0;
  private readonly fallback: ScriptedLines;
  private readonly maxTurns: number;

  constructor(
    private readonly model: LanguageModel,
    private readonly scenario: ScenarioSnapshot,
  ) {
    this.fallback = new ScriptedLines(scenario.lines);
    this.maxTurns = scenario.max_turns ?? scenario.lines.length;
  }

  get offline(): boolean {
    return this.model instanceof OfflineChatModel;
  }

  async next(conversation: Exchange[], signal?: AbortSignal): Promise<TestLine | null> {
    if (this.offline) return this.fallback.next();
    if (this.said >= this.maxTurns) return null;
    let text = '';
    for await (const delta of this.model.stream(
      { messages: callerMessages(this.scenario, conversation), tools: [] },
      signal,
    )) {
      if (delta.type === 'text') text += delta.text;
    }
    text = text.replace(/\s+/g, ' ').trim().slice(0, TEST_LINE_TEXT_MAX);
    if (!text || text.includes(END_OF_CALL)) return null;
    this.said++;
    return { text, pause_ms: TEST_PAUSE_MS_DEFAULT };
  }
}
