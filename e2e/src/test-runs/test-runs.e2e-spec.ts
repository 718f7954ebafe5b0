// Test scenarios and test runs through the gateway, as a partner's CI would drive them: scenarios are created
// (and refused with the field named when wrong), a run plays a scripted and a simulated scenario against an agent
// over browser sessions of the real voice pipeline (the campaigns service's test caller speaks offline speech
// that the voice service's offline STT reads, and reads the agent's offline speech back), and the verdicts say
// which assertions held. A deliberately broken agent (no end_call tool, a prompt that names a competitor) must
// fail the same suite on exactly those assertions. The agents' model, the simulated caller and the judge are the
// fake OpenAI-compatible server scripted below.
import { randomBytes } from 'node:crypto';
import { waitFor } from '@vap/testing';
import { adminApi, api, CALL_SERVICES } from '../../support';
import { ChatScript, lastUserText } from '../../support/fake-media';
import { VoiceWorld } from '../voice/voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const ASK = 'I would like to book a table.';
const BYE = 'Thank you, goodbye.';
const SIMULATED_FIRST = 'Hello, I need a table for two tonight.';
const COMPETITOR = 'BudgetCo';

/**
 * The agent's model: says back what it heard, calls end_call on a goodbye when it is offered, and names the
 * competitor when its prompt tells it to. The simulated caller's model (its system prompt casts it as the
 * caller): an opening line, a goodbye, then END_CALL.
 */
const script: ChatScript = (request) => {
  const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
  if (system.startsWith('You are playing the caller')) {
    const said = request.messages.filter((m) => m.role === 'assistant').length;
    return { text: [SIMULATED_FIRST, BYE][said] ?? 'END_CALL' };
  }
  if (request.messages[request.messages.length - 1]?.role === 'tool') return { text: '' };
  const heard = lastUserText(request);
  if (/\bgoodbye\b/i.test(heard) && request.tools.some((t) => t.function?.name === 'end_call'))
    return { toolCalls: [{ name: 'end_call', arguments: { reason: 'the caller said goodbye' } }] };
  const plug = system.includes(COMPETITOR) ? ` You should try ${COMPETITOR}.` : '';
  return { text: `You said ${heard.replace(/[.?!]+$/, '')}.${plug}` };
};

const ASSERTIONS = [
  {
    kind: 'tool_called',
    tool: 'end_call',
    arguments: { reason: 'the caller said goodbye' },
    arguments_schema: { type: 'object', required: ['reason'], properties: { reason: { type: 'string' } } },
  },
  { kind: 'transcript_not_contains', text: COMPETITOR, role: 'agent' },
  { kind: 'latency', max_ms: 20_000 },
];

describe('test scenarios and runs', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'test_runs',
      providers: { llm: true },
      // The campaigns service runs test runs (its test caller).
      services: [...CALL_SERVICES, 'campaigns'],
    });
    world.ai.script(script);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  async function scenario(body: Record<string, unknown>): Promise<Any> {
    const res = await world.api('/test-scenarios', { method: 'POST', body });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  async function finishedRun(agentId: string, scenarioIds: string[], repetitions: number): Promise<Any> {
    const created = await world.api('/test-runs', {
      method: 'POST',
      body: { agent_id: agentId, scenario_ids: scenarioIds, repetitions },
    });
    expect(created.status).toBe(202);
    expect(created.body.data).toMatchObject({
      status: 'queued',
      total: scenarioIds.length * repetitions,
      pass_rate: null,
    });
    const id = created.body.data.run_id as string;
    expect(id).toMatch(/^trun_/);
    return waitFor(
      async () => {
        const res = await world.api(`/test-runs/${id}`);
        return res.body.data?.status === 'completed' ? res.body.data : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 1000, description: `test run ${id} to complete` },
    ).catch(async (error: Error) => {
      // Where the run stands says which attempt held it up, and how.
      const stands = (await world.api(`/test-runs/${id}`)).body;
      throw new Error(`${error.message}\nthe run as it stands: ${JSON.stringify(stands).slice(0, 6000)}`);
    });
  }

  const verdictsOf = (attempt: Any) =>
    Object.fromEntries((attempt.verdicts as Any[]).map((v, i) => [`${i}:${v.kind}`, v.passed]));

  it('keeps scenarios per account and names a wrong field', async () => {
    const bad = await world.api('/test-scenarios', {
      method: 'POST',
      body: {
        name: 'Broken',
        mode: 'scripted',
        lines: [{ text: 'Hi.' }],
        assertions: [
          { kind: 'tool_called', tool: 'end_call' },
          { kind: 'transcript_contains', role: 'agent' },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(bad.body.error)).toContain('assertions[1].text is required');
    const noMode = await world.api('/test-scenarios', {
      method: 'POST',
      body: { name: 'x', lines: [{ text: 'Hi.' }] },
    });
    expect(noMode.status).toBe(400);
    expect(JSON.stringify(noMode.body.error)).toContain('mode must be scripted or simulated');
    // A partner's regular expression would run on the campaigns service's one thread: refused wherever it sits.
    const regex = await world.api('/test-scenarios', {
      method: 'POST',
      body: {
        name: 'Regex',
        mode: 'scripted',
        lines: [{ text: `lookup order ${'a'.repeat(280)}!` }],
        assertions: [
          {
            kind: 'tool_called',
            tool: 'lookup_order',
            arguments_schema: { type: 'object', properties: { q: { items: { pattern: '^(a+)+$' } } } },
          },
        ],
      },
    });
    expect(regex.status).toBe(400);
    expect(regex.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(regex.body.error)).toContain(
      'assertions[0].arguments_schema.properties.q.items.pattern: regular expressions are not accepted',
    );

    const created = await scenario({
      name: 'Greets',
      mode: 'scripted',
      lines: [{ text: 'Hello.', pause_ms: 200 }],
      assertions: [{ kind: 'end_reason', equals: 'caller_ended' }],
    });
    expect(created).toMatchObject({
      name: 'Greets',
      mode: 'scripted',
      lines: [{ text: 'Hello.', pause_ms: 200 }],
      judge: null,
      variables: {},
    });
    const patched = await world.api(`/test-scenarios/${created.scenario_id}`, {
      method: 'PATCH',
      body: { judge: { rubric: 'The agent greets the caller.' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.judge).toEqual({ rubric: 'The agent greets the caller.', pass_threshold: 0.7 });
    const listed = await world.api('/test-scenarios?limit=100');
    expect(listed.body.data.scenarios.map((s: Any) => s.scenario_id)).toContain(created.scenario_id);

    // Another account sees none of it.
    const other = await adminApi('/partners', {
      method: 'POST',
      baseUrl: world.gateway,
      body: { name: `Other Co ${randomBytes(3).toString('hex')}`, balance_inr: 100 },
    });
    const otherKey = other.body.data.api_key as string;
    const agent = await world.agent();
    const asOther = (path: string, init: Any = {}) =>
      api(path, { ...init, key: otherKey, baseUrl: world.gateway });
    expect((await asOther(`/test-scenarios/${created.scenario_id}`)).status).toBe(404);
    const run = await asOther('/test-runs', {
      method: 'POST',
      body: { scenario_ids: [created.scenario_id], agent_id: agent.id },
    });
    expect(run.status).toBe(404);

    const deleted = await world.api(`/test-scenarios/${created.scenario_id}`, { method: 'DELETE' });
    expect(deleted.body.data).toEqual({ scenario_id: created.scenario_id, deleted: true });
    expect((await world.api(`/test-scenarios/${created.scenario_id}`)).status).toBe(404);
  });

  it('passes a good agent and fails a broken one on the right assertions', async () => {
    const scripted = await scenario({
      name: 'Books, then says goodbye',
      mode: 'scripted',
      persona: 'A caller who knows what they want',
      lines: [
        { text: ASK, pause_ms: 300 },
        { text: BYE, pause_ms: 300 },
      ],
      assertions: [
        ...ASSERTIONS,
        // The caller's audio was heard word for word, and the agent answered it.
        { kind: 'transcript_contains', text: `You said ${ASK.replace('.', '')}`, role: 'agent' },
        { kind: 'end_reason', equals: 'agent_ended_call' },
      ],
      judge: {
        rubric: 'The agent repeats what the caller wants and ends the call politely.',
        pass_threshold: 0.5,
      },
    });
    const simulated = await scenario({
      name: 'Simulated diner',
      mode: 'simulated',
      persona: 'Asha, a regular customer in a hurry',
      goal: 'Book a table for two tonight, then leave',
      lines: [{ text: 'Fallback line.' }],
      max_turns: 3,
      assertions: [
        ...ASSERTIONS,
        { kind: 'transcript_contains', text: 'a table for two tonight', role: 'caller' },
      ],
    });
    const ids = [scripted.scenario_id, simulated.scenario_id];

    const good = await world.agent({ end_call_enabled: true });
    const passed = await finishedRun(good.id, ids, 2);
    for (const result of passed.results) {
      for (const attempt of result.attempts) {
        // The whole attempt in the message when it did not pass: its verdicts and transcript say why.
        if (attempt.status !== 'passed')
          throw new Error(`${result.name}: ${JSON.stringify(attempt, null, 1)}`);
        expect(attempt.error).toBeNull();
        expect(attempt.session_id).toEqual(expect.any(String));
        expect(attempt.tool_calls).toEqual([
          expect.objectContaining({ name: 'end_call', arguments: { reason: 'the caller said goodbye' } }),
        ]);
      }
    }
    expect(passed).toMatchObject({ total: 4, passed: 4, failed: 0, errored: 0, pass_rate: 1 });
    const [scriptedResult, simulatedResult] = passed.results;
    expect(scriptedResult).toMatchObject({
      scenario_id: scripted.scenario_id,
      mode: 'scripted',
      passed: 2,
      finished: 2,
    });
    const first = scriptedResult.attempts[0];
    expect(first.transcript).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ role: 'caller', text: ASK }),
        expect.objectContaining({ role: 'agent', text: `You said ${ASK.replace('.', '')}.` }),
      ]),
    );
    expect(first.judge).toMatchObject({
      score: 0.5,
      pass_threshold: 0.5,
      passed: true,
      reasons: expect.any(String),
    });
    expect(first.end_reason).toBe('agent_ended_call');
    // The simulated caller's lines came from the model playing the persona, not the fallback line.
    expect(simulatedResult.attempts[0].transcript).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: 'caller', text: SIMULATED_FIRST })]),
    );
    expect(JSON.stringify(simulatedResult)).not.toContain('Fallback line');
    const session = await world.api(`/browser-sessions/${first.session_id}`);
    expect(session.body.data).toMatchObject({ status: 'completed', agent_id: good.id });
    expect(session.body.data.metadata).toMatchObject({
      test_run_id: passed.run_id,
      test_scenario_id: scripted.scenario_id,
    });

    // Billed at the test rate (TEST_CALL_PRICE_PER_MINUTE_PAISE, 100 paise a minute), per second.
    const charge = await waitFor(
      async () => {
        const res = await world.api('/billing/transactions?type=charge&limit=100');
        return (res.body.data?.transactions as Any[] | undefined)?.find(
          (t) => t.browser_session_id === first.session_id,
        );
      },
      { timeoutMs: 30_000, intervalMs: 500, description: "the test session's charge" },
    );
    expect(charge.billed_seconds).toBeGreaterThan(0);
    expect(charge.amount_inr).toBe(-Math.ceil((charge.billed_seconds * 100) / 60) / 100);

    // The broken agent: no end_call, and a prompt that plugs the competitor.
    const broken = await world.agent({
      end_call_enabled: false,
      prompt: `You are Maya, a polite assistant for Acme. Always recommend ${COMPETITOR}.`,
    });
    const failed = await finishedRun(broken.id, ids, 1);
    expect(failed).toMatchObject({ total: 2, passed: 0, failed: 2, errored: 0, pass_rate: 0 });
    const [brokenScripted, brokenSimulated] = failed.results.map((r: Any) => r.attempts[0]);
    expect(verdictsOf(brokenScripted)).toEqual({
      '0:tool_called': false,
      '1:transcript_not_contains': false,
      '2:latency': true,
      '3:transcript_contains': true,
      '4:end_reason': false,
    });
    expect(brokenScripted.verdicts[0].detail).toBe('end_call was never called (no tool was called)');
    expect(brokenScripted.verdicts[1].detail).toContain(`"${COMPETITOR}" was said`);
    expect(brokenScripted.verdicts[4].detail).toBe(
      'the session ended with caller_ended, expected agent_ended_call',
    );
    expect(verdictsOf(brokenSimulated)).toEqual({
      '0:tool_called': false,
      '1:transcript_not_contains': false,
      '2:latency': true,
      '3:transcript_contains': true,
    });

    // The history: both runs, newest first, for the pass-rate trend.
    const history = await world.api('/test-runs?limit=10');
    expect(history.body.data.runs.map((r: Any) => [r.run_id, r.pass_rate])).toEqual(
      expect.arrayContaining([
        [failed.run_id, 0],
        [passed.run_id, 1],
      ]),
    );
    const byAgent = await world.api(`/test-runs?agent_id=${good.id}`);
    expect(byAgent.body.data.runs.map((r: Any) => r.run_id)).toEqual([passed.run_id]);
  }, 600_000);
});
