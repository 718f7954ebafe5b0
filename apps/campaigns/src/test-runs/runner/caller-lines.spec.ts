import { ChatRequest, createChatModel, LanguageModel } from '@vap/llm';
import type { ScenarioSnapshot } from '../../test-scenarios/test-scenario-row';
import { callerMessages, END_OF_CALL, ScriptedLines, SimulatedLines } from './caller-lines';

const SCENARIO: ScenarioSnapshot = {
  id: 'tsc_x',
  name: 'Asks for a table',
  mode: 'simulated',
  persona: 'Asha, in a hurry',
  goal: 'a table for two tonight',
  lines: [
    { text: 'A table for two, please.', pause_ms: 500 },
    { text: 'Goodbye.', pause_ms: 200 },
  ],
  max_turns: 3,
  variables: {},
  assertions: [],
  judge: null,
};

/** A model that answers each request with the next of `answers`, keeping the requests. */
function scriptedModel(answers: string[]): LanguageModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: 'fake',
    requests,
    async *stream(request: ChatRequest) {
      requests.push(request);
      for (const word of (answers.shift() ?? '').split(/(?<= )/)) yield { type: 'text' as const, text: word };
    },
    extract: () => Promise.resolve({}),
    analyze: () => Promise.resolve({ summary: null, success: null }),
  };
}

describe('caller lines', () => {
  it('scripted: the lines in order, then nothing', async () => {
    const lines = new ScriptedLines(SCENARIO.lines);
    expect(await lines.next()).toEqual(SCENARIO.lines[0]);
    expect(await lines.next()).toEqual(SCENARIO.lines[1]);
    expect(await lines.next()).toBeNull();
  });

  it('simulated on the offline engine: the scenario lines as the fallback', async () => {
    const lines = new SimulatedLines(createChatModel({ LLM_MODEL: 'x', LLM_TIMEOUT_MS: 1000 }), SCENARIO);
    expect(lines.offline).toBe(true);
    expect((await lines.next([]))?.text).toBe('A table for two, please.');
    expect((await lines.next([]))?.text).toBe('Goodbye.');
    expect(await lines.next([])).toBeNull();
  });

  it('simulated on a model: persona, goal and conversation asked, up to max_turns, ends on END_CALL', async () => {
    const model = scriptedModel(['Hi, a table for two tonight?', 'Great,   thanks.', END_OF_CALL]);
    const lines = new SimulatedLines(model, SCENARIO);
    expect(await lines.next([{ role: 'agent', text: 'Hello, Maya here.' }])).toEqual({
      text: 'Hi, a table for two tonight?',
      pause_ms: 500,
    });
    expect((await lines.next([]))?.text).toBe('Great, thanks.');
    expect(await lines.next([])).toBeNull();
    const system = model.requests[0].messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('Asha, in a hurry');
    expect(system.content).toContain('a table for two tonight');
    expect(model.requests[0].messages.slice(1)).toEqual([{ role: 'user', content: 'Hello, Maya here.' }]);
  });

  it('stops after max_turns lines', async () => {
    const lines = new SimulatedLines(scriptedModel(['one', 'two', 'three', 'four']), {
      ...SCENARIO,
      max_turns: 2,
    });
    expect((await lines.next([]))?.text).toBe('one');
    expect((await lines.next([]))?.text).toBe('two');
    expect(await lines.next([])).toBeNull();
  });

  it('writes the agent as the user and the caller as the assistant', () => {
    const messages = callerMessages(SCENARIO, [
      { role: 'agent', text: 'Hello.' },
      { role: 'caller', text: 'Hi.' },
    ]);
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'Hello.' },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: '(the agent is silent)' },
    ]);
  });
});
