// An agent's tools list on live calls: the fake carrier_b answers into the media stream and the language model is
// the fake OpenAI-compatible server, which records the tools each request offered. What a call offers the model is
// exactly what GET /agent/{id}/tools answers, and a built-in tool the agent's list leaves out is neither offered
// nor named in the system prompt.
import { randomBytes } from 'node:crypto';
import { ChatCompletionRequest, ChatScript, lastUserText } from '../../support/fake-media';
import { LiveCall, VoiceWorld } from './voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const HELLO = 'Hello, who is this?';
const ANSWER = 'This is Maya from Acme.';

/** Answers in words only: what is tested is what each request offered, not what the model did with it. */
const script: ChatScript = (request) =>
  lastUserText(request) === HELLO ? { text: ANSWER } : { text: 'Anything else?' };

describe('an agent’s tools on live calls', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({ name: 'voice_agent_tools', providers: { llm: true } });
    world.ai.script(script);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  /** Dials the agent, says HELLO, waits for the answer, hangs up; the model request that answered it. */
  async function offeredOnCall(agentId: string): Promise<ChatCompletionRequest> {
    const call: LiveCall = await world.dial('carrier_b', agentId);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say(HELLO);
    await call.media.waitForHeard(ANSWER);
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    // The conversation's requests (post-call analysis asks without tools); opt_out is offered on every call.
    const chats = world.ai.chats.filter(
      (c) =>
        c.tools.length > 0 &&
        c.messages[0]?.content?.includes(agentId) &&
        c.messages.some((m) => m.role === 'user' && m.content === HELLO),
    );
    expect(chats).toHaveLength(1);
    return chats[0];
  }

  const settings = {
    end_call_enabled: true,
    transfer_enabled: true,
    transfer_number: '+919811112222',
    send_dtmf_enabled: true,
  };

  it('offers only the built-in tools the agent’s list allows, then its handoffs and functions, as GET /agent/{id}/tools says', async () => {
    const billing = await world.agent();
    const fn = await world.api('/custom-functions', {
      body: {
        name: `check_order_${randomBytes(3).toString('hex')}`,
        description: 'Looks up an order by its number.',
        url: 'https://orders.example.com/check',
        parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
      },
    });
    expect(fn.status).toBe(200);
    const agent = await world.agent({ ...settings, tools: ['transfer_call'] });
    // The prompt names the agent, so its model requests are told apart from the other test's.
    const named = await world.api(`/agent/${agent.id}`, {
      method: 'PUT',
      body: {
        prompt: `You are Maya (agent ${agent.id}), a polite assistant for Acme. Keep answers short.`,
        handoffs: [{ name: 'billing', description: 'The caller asks about a bill.', agent_id: billing.id }],
      },
    });
    expect(named.status).toBe(200);
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);
    const effective = (await world.api(`/agent/${agent.id}/tools`)).body.data;

    const chat = await offeredOnCall(agent.id);
    const offered = chat.tools.map((t) => t.function);
    expect(offered.map((t) => t.name)).toEqual([
      'transfer_call',
      'opt_out',
      'handoff_to_billing',
      fn.body.data.name,
    ]);
    expect(offered).toEqual(
      effective.tools.map(({ name, description, parameters }: Any) => ({ name, description, parameters })),
    );
    // The built-in ones as the catalog documents them.
    const catalog = (await world.api('/agent-tools')).body.data.tools;
    for (const name of ['transfer_call', 'opt_out']) {
      const entry = catalog.find((t: Any) => t.name === name);
      expect(offered.find((t) => t.name === name)).toEqual({
        name,
        description: entry.description,
        parameters: entry.parameters,
      });
    }
    // A tool the model is not offered is not in its instructions either.
    const prompt = chat.messages[0].content ?? '';
    expect(prompt).toContain('transfer_call');
    expect(prompt).not.toContain('end_call');
    expect(prompt).toContain('opt_out');
  });

  it('offers every tool its settings turn on when the agent has no list', async () => {
    const agent = await world.agent(settings);
    expect(agent.tools).toBeNull();
    const named = await world.api(`/agent/${agent.id}`, {
      method: 'PUT',
      body: { prompt: `You are Maya (agent ${agent.id}), a polite assistant for Acme. Keep answers short.` },
    });
    expect(named.status).toBe(200);
    const chat = await offeredOnCall(agent.id);
    expect(chat.tools.map((t) => t.function.name)).toEqual([
      'end_call',
      'transfer_call',
      'opt_out',
      'send_dtmf',
    ]);
    expect((await world.api(`/agent/${agent.id}/tools`)).body.data.tools.map((t: Any) => t.name)).toEqual([
      'end_call',
      'transfer_call',
      'opt_out',
      'send_dtmf',
    ]);
  });
});
