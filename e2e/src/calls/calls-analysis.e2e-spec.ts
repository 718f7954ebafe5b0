// Post-call analysis through the gateway: an agent's analysis_config (summary, success rubric and threshold) gives
// each answered call a summary and a success evaluation, in GET /calls/{id} and in session.completed. The platform
// runs the offline engine here (no LLM server), whose analysis is the same for the same transcript: the summary
// quotes the caller's first sentence and the agent's last, and the score is the share of the rubric's words the
// conversation used.
import type { CallAnalysis } from '@vap/messages';
import { api } from '../../support';
import { CallsPartner, callee, EventTap } from './call-fixtures';

interface Line {
  role: 'user' | 'bot';
  content: string;
}

const sentencesOf = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);

describe('post-call analysis', () => {
  let partner: CallsPartner;
  let tap: EventTap;

  beforeAll(async () => {
    partner = await CallsPartner.create();
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  async function callWith(agentId: string, to = callee('42')) {
    const res = await partner.start({ agent_id: agentId, to_number: to });
    expect(res.status).toBe(200);
    const completed = await tap.sessionCompleted(res.body.data.call_id);
    const call = (await partner.calls(`/${res.body.data.call_id}`)).body.data;
    return { completed: completed.data as { analysis: CallAnalysis | null }, call };
  }

  it('summarises the call and judges it against the rubric, in the call and in session.completed', async () => {
    const agent = await partner.createAgent({
      analysis_config: {
        summary_instructions: 'Name the plan asked about.',
        success_rubric: 'The callee asked about plans and pricing',
        success_threshold: 2,
      },
    });
    const { completed, call } = await callWith(agent.id);
    const analysis = completed.analysis!;
    expect(analysis).toEqual({
      status: 'success',
      model: 'offline-rules-v1',
      analyzedAt: expect.any(String),
      latencyMs: expect.any(Number),
      attempts: 1,
      summary: expect.any(String),
      success: {
        passed: expect.any(Boolean),
        score: expect.any(Number),
        threshold: 2,
        reasons: expect.any(String),
      },
      error: null,
    });
    expect(call.session.analysis).toEqual(analysis);

    // The summary quotes the transcript the call kept.
    const transcript = call.session.transcript as Line[];
    const callerFirst = sentencesOf(transcript.find((l) => l.role === 'user')!.content)[0];
    const agentLast = sentencesOf(transcript.filter((l) => l.role === 'bot').at(-1)!.content).at(-1);
    expect(analysis.summary).toBe(`The caller said: "${callerFirst}" The agent ended with: "${agentLast}"`);
    // The callee asked about pricing (extraction finds it too): some of the rubric's words were said, and the
    // verdict is the score against the threshold.
    const success = analysis.success!;
    expect(success.score).toBeGreaterThan(0);
    expect(success.score).toBeLessThanOrEqual(10);
    expect(success.passed).toBe(success.score >= 2);
    expect(success.reasons).toMatch(/^The conversation covered \d+ of the criteria's 4 key words/);
  });

  it('fails a call that met none of the rubric, and leaves the summary out when it is off', async () => {
    const agent = await partner.createAgent({
      analysis_config: {
        summary_enabled: false,
        success_rubric: 'Zebra xylophone quasar ordered',
        success_threshold: 1,
      },
    });
    const { completed } = await callWith(agent.id);
    expect(completed.analysis).toMatchObject({
      status: 'success',
      summary: null,
      success: { passed: false, score: 0, threshold: 1 },
    });
  });

  it('skips a call with nothing asked, and has none for a call not answered', async () => {
    const agent = await partner.createAgent({ analysis_config: { summary_enabled: false } });
    const { completed, call } = await callWith(agent.id);
    expect(completed.analysis).toMatchObject({
      status: 'skipped',
      attempts: 0,
      summary: null,
      success: null,
    });
    expect(call.session.analysis).toEqual(completed.analysis);
    // An agent with the defaults summarises; a call nobody answered has nothing to analyse.
    const defaults = await partner.createAgent();
    const missed = await callWith(defaults.id, callee('02'));
    expect(missed.completed.analysis).toBeNull();
    expect(missed.call.session.analysis).toBeNull();
  });

  it('an update changes only the fields it sends, the next call judges by them, and null resets', async () => {
    const agent = await partner.createAgent({
      analysis_config: { success_rubric: 'The callee asked about pricing', success_threshold: 3 },
    });
    const put = await api(`/agent/${agent.id}`, {
      method: 'PUT',
      key: partner.generalKey,
      body: { analysis_config: { success_threshold: 9 } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.analysis_config).toEqual({
      summary_enabled: true,
      summary_instructions: null,
      success_rubric: 'The callee asked about pricing',
      success_threshold: 9,
    });
    const { completed } = await callWith(agent.id);
    expect(completed.analysis?.success?.threshold).toBe(9);
    const reset = await api(`/agent/${agent.id}`, {
      method: 'PUT',
      key: partner.generalKey,
      body: { analysis_config: null },
    });
    expect(reset.body.data.analysis_config).toEqual({
      summary_enabled: true,
      summary_instructions: null,
      success_rubric: null,
      success_threshold: 7,
    });
  });
});
