// Handoffs between agents (a squad) on live carrier calls: the reception agent's model hands the caller to the
// billing agent through its handoff_to_billing tool, the fake carrier_b answers into the media stream, and the
// model is the fake OpenAI-compatible server scripted below. What is tested is what the platform gives the next
// agent's model for each context mode, that the next agent speaks on the same call, and the call's segments,
// through the API and on the console's call page in a real browser.
import { launchBrowser, seriousA11yViolations } from '../../support/browser';
import { signInNewOwner } from '../console/console-fixtures';
import { ChatCompletionRequest, ChatScript, FAKE_AI_MODELS, lastUserText } from '../../support/fake-media';
import { botLines, VoiceWorld } from './voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const ASK = 'My bill is wrong.';
const PASSING_ON = 'Let me pass you to billing.';
const BILLING_REPLY = 'Billing here, which invoice is it?';
const SUMMARY = 'The caller says their bill is wrong.';
const GROQ_MODEL = 'llama-3.1-8b-instant';
/** How the platform puts a summary before the next agent (docs/api.md, Handoffs). */
const SUMMARY_NOTE = `A colleague handed this call to you. The conversation so far, in short: ${SUMMARY}`;

const systemPrompt = (request: ChatCompletionRequest) =>
  request.messages.find((m) => m.role === 'system')?.content ?? '';

/** Reception hands a bill question to billing; billing answers; a summary is asked for with its own instructions. */
const script: ChatScript = (request) => {
  const prompt = systemPrompt(request);
  if (prompt.startsWith('Summarise this phone conversation')) return { text: SUMMARY };
  if (prompt.includes('handoff-test billing')) return { text: BILLING_REPLY };
  const handoff = request.tools.find((t) => t.function.name === 'handoff_to_billing');
  if (handoff && lastUserText(request) === ASK) {
    // In summary mode the tool asks for the summary as an argument; the model writes it there.
    const asksSummary = JSON.stringify(handoff.function.parameters ?? {}).includes('"summary"');
    return {
      text: PASSING_ON,
      toolCalls: [
        {
          name: 'handoff_to_billing',
          arguments: asksSummary
            ? { reason: 'bill question', summary: SUMMARY }
            : { reason: 'bill question' },
        },
      ],
    };
  }
  return { text: 'Anything else?' };
};

describe('handoffs between agents on live calls', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    // The platform's Groq key (at the same fake) lets an agent of the squad think on a model of its own.
    world = await VoiceWorld.start({
      name: 'voice_handoffs',
      providers: { llm: true },
      platformModels: ['groq'],
    });
    world.ai.script(script);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  /** A billing agent (marked by `label`) and a reception agent that hands bill questions to it. */
  async function squad(label: string, handoff: Record<string, unknown>, billingSettings = {}) {
    const billing = await world.agent({
      prompt: `You are billing at Acme, handoff-test billing ${label}.`,
      intro_message: null,
      ...billingSettings,
    });
    const reception = await world.agent({
      prompt: `You are reception at Acme, handoff-test reception ${label}.`,
      handoffs: [
        { name: 'billing', description: 'The caller asks about a bill.', agent_id: billing.id, ...handoff },
      ],
    });
    expect(reception.handoffs).toEqual([
      expect.objectContaining({ name: 'billing', agent_id: billing.id, context_mode: handoff.context_mode }),
    ]);
    return { billing, reception };
  }

  /** Dials reception, asks about the bill, waits for billing's answer on the same call, hangs up. */
  async function handOffCall(label: string, handoff: Record<string, unknown>, billingSettings = {}) {
    const { billing, reception } = await squad(label, handoff, billingSettings);
    const call = await world.dial('carrier_b', reception.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say(ASK);
    await call.media.waitForHeard(BILLING_REPLY);
    await call.media.waitUntilAgentSilent();
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const done: Any = await world.finished(call.callId);
    const chats = world.ai.chats.filter((c) => systemPrompt(c).includes(`handoff-test billing ${label}`));
    const receptionChats = world.ai.chats.filter((c) =>
      systemPrompt(c).includes(`handoff-test reception ${label}`),
    );
    return { billing, reception, call, done, billingChat: chats[0], receptionChat: receptionChats.at(-1)! };
  }

  it('full: the next agent gets the conversation as it was said, speaks on the same call, and the call shows both segments', async () => {
    const { billing, reception, call, done, billingChat, receptionChat } = await handOffCall('full', {
      context_mode: 'full',
    });
    // What reception's model had been told and said, without its system prompt and tool traffic.
    const said = receptionChat.messages
      .filter((m: Any) => (m.role === 'user' || m.role === 'assistant') && m.content)
      .map((m: Any) => ({ role: m.role, content: m.content }));
    expect(said.at(-1)).toEqual({ role: 'user', content: ASK });
    expect(billingChat.messages.slice(1)).toEqual([...said, { role: 'assistant', content: PASSING_ON }]);
    // Billing's own tools: it has no handoffs of its own.
    expect(billingChat.tools.map((t: Any) => t.function.name)).not.toContain('handoff_to_billing');
    expect(call.media.heard.map((h) => h.text)).toEqual([INTRO, PASSING_ON, BILLING_REPLY]);

    // One call: one session, both agents in its segments, the handoff among its tool calls.
    expect(done.agent_id).toBe(reception.id);
    expect(done.session.segments).toEqual([
      {
        agent_id: reception.id,
        agent_name: reception.agent_name,
        started_at: expect.any(String),
        ended_at: expect.any(String),
        handoff_reason: 'bill question',
      },
      {
        agent_id: billing.id,
        agent_name: billing.agent_name,
        started_at: done.session.segments[0].ended_at,
        ended_at: null,
        handoff_reason: null,
      },
    ]);
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({ name: 'handoff_to_billing', kind: 'handoff', outcome: 'success' }),
    ]);
    expect(done.session.transcript.map((l: Any) => l.content)).toEqual(
      expect.arrayContaining([ASK, BILLING_REPLY]),
    );
    await seeSegmentsInTheConsole(call.callId, [reception.agent_name, billing.agent_name]);
  });

  /** The partner's owner signs in to the console and finds the agents of the call on its page, in order. */
  async function seeSegmentsInTheConsole(callId: string, agentNames: string[]) {
    const launched = await launchBrowser();
    try {
      const page = await signInNewOwner(launched.browser, world.gateway);
      await page.goto(`${world.gateway}/console/calls/${callId}`);
      const section = page.getByRole('region', { name: 'Agents on this call' });
      await section.waitFor();
      const items = section.getByRole('listitem');
      expect(await items.count()).toBe(2);
      // Names, not ids, each a link to its agent; the first says why it handed on.
      await expect(items.nth(0).getByRole('link').textContent()).resolves.toBe(agentNames[0]);
      await expect(items.nth(1).getByRole('link').textContent()).resolves.toBe(agentNames[1]);
      expect(await items.nth(0).textContent()).toContain('handed on: bill question');
      expect(await items.nth(1).textContent()).not.toContain('handed on');
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await launched.close();
    }
  }

  it('last_turns: the next agent gets the last messages only', async () => {
    const { billingChat } = await handOffCall('last', { context_mode: 'last_turns', last_turns: 2 });
    expect(billingChat.messages.slice(1)).toEqual([
      { role: 'user', content: ASK },
      { role: 'assistant', content: PASSING_ON },
    ]);
  });

  it('summary: the next agent gets the summary the current agent’s model wrote in its handoff call', async () => {
    const summariesBefore = world.ai.chats.filter((c) => systemPrompt(c).startsWith('Summarise')).length;
    const { billingChat, receptionChat } = await handOffCall('summary', { context_mode: 'summary' });
    const tool: Any = receptionChat.tools.find((t: Any) => t.function.name === 'handoff_to_billing');
    expect(tool.function.parameters.required).toEqual(['summary']);
    expect(billingChat.messages.slice(1)).toEqual([{ role: 'system', content: SUMMARY_NOTE }]);
    // Written in the handoff's own model round: no summary round of its own.
    expect(world.ai.chats.filter((c) => systemPrompt(c).startsWith('Summarise'))).toHaveLength(
      summariesBefore,
    );
  });

  it('the next agent thinks with its own model from the handoff on, each line naming the model that wrote it', async () => {
    const { call, billingChat, receptionChat } = await handOffCall(
      'own-model',
      { context_mode: 'full' },
      { model: { provider: 'groq', model: GROQ_MODEL, temperature: 0.2 } },
    );
    // Reception (no model of its own) on the deployment's default; billing on its Groq model and parameters.
    expect(receptionChat.model).toBe(FAKE_AI_MODELS.llm);
    expect(billingChat).toMatchObject({ model: GROQ_MODEL, authorization: `Bearer ${world.ai.apiKey}` });
    expect(billingChat.body).toMatchObject({ temperature: 0.2 });
    const transcript = await world.transcript(call.callId, (lines) =>
      botLines(lines).some((l) => l.content === BILLING_REPLY),
    );
    const byContent = new Map(botLines(transcript).map((l) => [l.content, l.providers]));
    expect(byContent.get(PASSING_ON)).toMatchObject({ llm: 'platform', llm_model: FAKE_AI_MODELS.llm });
    expect(byContent.get(BILLING_REPLY)).toMatchObject({ llm: 'groq', llm_model: GROQ_MODEL });
  });

  it('refuses a handoff to an agent not of the account (as one that does not exist) or to the agent itself', async () => {
    const me = await world.agent({});
    const self = await world.api(`/agent/${me.id}`, {
      method: 'PUT',
      body: { handoffs: [{ name: 'me', description: 'Never', agent_id: me.id }] },
    });
    expect(self.status).toBe(400);
    expect(self.body.error.details).toEqual([
      {
        field: 'handoffs.0.agent_id',
        message: 'handoffs.0.agent_id is this agent: an agent does not hand off to itself',
      },
    ]);
    const unknown = await world.api(`/agent/${me.id}`, {
      method: 'PUT',
      body: {
        handoffs: [{ name: 'ghost', description: 'Never', agent_id: '00000000-0000-4000-8000-000000000000' }],
      },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([
      { field: 'handoffs.0.agent_id', message: 'handoffs.0.agent_id is not an agent of this account' },
    ]);
  });
});
