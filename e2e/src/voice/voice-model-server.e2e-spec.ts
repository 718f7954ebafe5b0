// A partner's own model server ("custom") and fallback models on carrier calls, through the gateway. The partner's
// server is a fake HTTPS server speaking OpenAI's streamed Chat Completions (the wire format of
// https://platform.openai.com/docs/api-reference/chat, as of 2025-06: `chat.completion.chunk` events, tool calls
// in `delta.tool_calls`, usage in a last chunk with `stream_options.include_usage`); it answers from what each
// request asked, on a carrier call and a browser session. The fallback model is Groq on the platform's key (the run's fake OpenAI-compatible server).
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { waitFor } from '@vap/testing';
import {
  Answer,
  FunctionRequest,
  FunctionServer,
  signatureValid,
  startFunctionServer,
} from '../agents/function-server';
import { botLines, LiveCall, VoiceWorld } from './voice-fixtures';
import { voiceScript } from './voice-script';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const ORIGIN = 'https://shop.example.test';
const SERVER_KEY = 'partner-model-server-e2e-0007';
const SERVER_MODEL = 'acme/llama-70b';
const BROKEN_MODEL = 'acme/broken';
const GROQ_MODEL = 'llama-3.1-8b-instant';
const SHIPPED = 'Your order has shipped.';
/** The tokens the partner's server reports for each reply. */
const USAGE = { prompt_tokens: 321, completion_tokens: 17, total_tokens: 338 };

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-e2e',
    object: 'chat.completion.chunk',
    model: SERVER_MODEL,
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

/** A streamed reply: its text in two pieces, or one tool call whose arguments come in two pieces. */
function streamed(reply: { text: string } | { tool: string; arguments: Record<string, unknown> }): Answer {
  const events = [chunk({ role: 'assistant', content: '' })];
  if ('text' in reply) {
    const half = reply.text.indexOf(' ', reply.text.length / 2);
    events.push(chunk({ content: reply.text.slice(0, half) }), chunk({ content: reply.text.slice(half) }));
    events.push(chunk({}, 'stop'));
  } else {
    const args = JSON.stringify(reply.arguments);
    events.push(
      chunk({
        tool_calls: [
          { index: 0, id: 'call_e2e_1', type: 'function', function: { name: reply.tool, arguments: '' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 5) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] }),
      chunk({}, 'tool_calls'),
    );
  }
  events.push(
    `data: ${JSON.stringify({ id: 'chatcmpl-e2e', choices: [], usage: USAGE })}\n\n`,
    'data: [DONE]\n\n',
  );
  return { status: 200, contentType: 'text/event-stream', body: events.join('') };
}

describe('a partner’s own model server and fallback models on calls and browser sessions', () => {
  let world: VoiceWorld;
  let server: FunctionServer;
  let signingSecret = '';
  let functionName = '';

  beforeAll(async () => {
    server = await startFunctionServer();
    world = await VoiceWorld.start({
      name: 'voice_model_server',
      providers: { llm: true },
      platformModels: ['groq'],
      // The partner's server listens on loopback with a certificate of the run's test CA.
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '' },
    });
    world.ai.script(voiceScript);
    server.answer('/v1/models', { status: 200, body: '{"object":"list","data":[]}' });
    server.answer('/v1/chat/completions', (req) => {
      const body = JSON.parse(req.rawBody);
      if (body.model === BROKEN_MODEL)
        return { status: 503, body: '{"error":{"message":"the model is overloaded","type":"server_error"}}' };
      const last = body.messages.at(-1);
      if (last?.role === 'tool')
        return streamed({ text: /shipped/.test(last.content) ? SHIPPED : 'Not found.' });
      if (/order/i.test(String(last?.content)))
        return streamed({ tool: functionName, arguments: { order_number: 42 } });
      return streamed({ text: 'How can I help?' });
    });
    const made = await world.api('/provider-credentials', {
      body: { provider: 'custom', base_url: `${server.url}/v1`, api_key: SERVER_KEY },
    });
    expect(made.status).toBe(200);
    signingSecret = made.body.data.provider_credential.signing_secret;
    expect(signingSecret).toMatch(/^mssec_/);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await server?.close();
  });

  const chatsOf = (callId: string): { req: FunctionRequest; body: Any }[] =>
    server.requests
      .filter((r) => r.url === '/v1/chat/completions')
      .map((req) => ({ req, body: JSON.parse(req.rawBody) }))
      .filter((c) => c.body.call?.id === callId && c.body.stream === true);

  async function hangUp(call: LiveCall): Promise<Any> {
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    return world.finished(call.callId);
  }

  /** An agent on the partner's server with the partner's order function (a path of its own on the server). */
  async function serverAgent(): Promise<{ agent: Any; path: string }> {
    const unique = randomBytes(3).toString('hex');
    functionName = `check_order_${unique}`;
    const path = `/orders_${unique}`;
    server.answer(path, { status: 200, body: JSON.stringify({ status: 'shipped' }) });
    const fn = await world.api('/custom-functions', {
      body: {
        name: functionName,
        description: 'Looks up where an order is by its number',
        url: `${server.url}${path}`,
        parameters: {
          type: 'object',
          properties: { order_number: { type: 'integer', minimum: 1 } },
          required: ['order_number'],
        },
      },
    });
    expect(fn.status).toBe(200);
    const agent = await world.agent({
      model: { provider: 'custom', model: SERVER_MODEL, temperature: 0.4, max_tokens: 300 },
    });
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);
    return { agent, path };
  }

  it('answers on the partner’s server, signed, with the call’s id and variables, and calls the partner’s function', async () => {
    const { agent, path } = await serverAgent();
    const call = await world.dial('carrier_b', agent.id, { body: { variables: { customer_name: 'Asha' } } });
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Where is my order?');
    await call.media.waitForHeard(SHIPPED);
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    // Two rounds: the tool call, then the answer with the function's result in the messages.
    const chats = chatsOf(call.callId);
    expect(chats).toHaveLength(2);
    for (const { req, body } of chats) {
      expect(signatureValid(req, signingSecret)).toBe(true);
      expect(req.headers.authorization).toBe(`Bearer ${SERVER_KEY}`);
      expect(body).toMatchObject({
        model: SERVER_MODEL,
        stream: true,
        temperature: 0.4,
        max_tokens: 300,
        call: { id: call.callId, variables: expect.objectContaining({ customer_name: 'Asha' }) },
      });
      expect(body.tools.map((t: Any) => t.function.name)).toContain(functionName);
    }
    expect(chats[1].body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_e2e_1' });
    expect(server.requests.filter((r) => r.url === path)).toHaveLength(1);
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({ name: functionName, arguments: { order_number: 42 }, outcome: 'success' }),
    ]);

    const answer = botLines(done.session.transcript).find((l: Any) => l.content === SHIPPED);
    expect(answer.providers).toMatchObject({ llm: 'custom', llm_model: SERVER_MODEL });
    // The line carries both rounds' tokens (the tool round said nothing of its own).
    expect(answer.usage).toEqual({
      input_tokens: 2 * USAGE.prompt_tokens,
      output_tokens: 2 * USAGE.completion_tokens,
    });
    expect(done.model_usage).toEqual([
      {
        provider: 'custom',
        model: SERVER_MODEL,
        paid_by: 'account',
        input_tokens: 2 * USAGE.prompt_tokens,
        output_tokens: 2 * USAGE.completion_tokens,
        replies: 1,
      },
    ]);
  });

  it('answers a browser session’s typed line on the partner’s server, which calls the partner’s function', async () => {
    const { agent } = await serverAgent();
    const created = await world.api('/browser-sessions', {
      body: { agent_id: agent.id, allowed_origins: [ORIGIN] },
    });
    expect(created.status).toBe(200);
    const before = server.requests.length;
    const page = new WebSocket(created.body.data.connect_url, { origin: ORIGIN });
    const messages: Any[] = [];
    page.on('error', () => undefined);
    page.on('message', (data, isBinary) => {
      if (isBinary) return;
      const message = JSON.parse(String(data));
      messages.push(message);
      // The page plays the agent's audio: a mark comes back once what was queued before it played.
      if (message.type === 'mark') page.send(JSON.stringify({ type: 'played', name: message.name }));
    });
    const agentSaid = (text: string) =>
      waitFor(
        () =>
          messages.some((m) => m.type === 'transcript' && m.role === 'agent' && m.final && m.text === text) ||
          undefined,
        { timeoutMs: 30_000, intervalMs: 50, description: `the agent to say ${text}` },
      );
    await agentSaid(INTRO);
    page.send(JSON.stringify({ type: 'mute', muted: true }));
    page.send(JSON.stringify({ type: 'user_text', text: 'Where is my order?' }));
    await agentSaid(SHIPPED);
    expect(messages.filter((m) => m.type === 'tool').map((m) => [m.name, m.status])).toEqual([
      [functionName, 'running'],
      [functionName, 'done'],
    ]);
    page.send(JSON.stringify({ type: 'end' }));
    const ended = await waitFor(
      async () => {
        const data = (await world.api(`/browser-sessions/${created.body.data.id}`)).body.data;
        return data.status === 'completed' && data.session?.transcript ? data : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'the browser session to complete' },
    );
    const chats = server.requests
      .slice(before)
      .filter((r) => r.url === '/v1/chat/completions')
      .map((req) => ({ req, body: JSON.parse(req.rawBody) }))
      // The conversation's rounds (post-call analysis on the same server is not streamed).
      .filter((c) => c.body.stream === true);
    expect(chats).toHaveLength(2);
    for (const { req, body } of chats) {
      expect(signatureValid(req, signingSecret)).toBe(true);
      expect(body.model).toBe(SERVER_MODEL);
      expect(body.call.id).toEqual(expect.any(String));
    }
    const answer = botLines(ended.session.transcript).find((l: Any) => l.content === SHIPPED);
    expect(answer.providers).toMatchObject({ llm: 'custom', llm_model: SERVER_MODEL });
    expect(ended.session.tool_calls).toEqual([
      expect.objectContaining({ name: functionName, arguments: { order_number: 42 }, outcome: 'success' }),
    ]);
  });

  it('falls back to the next of fallback_models when the agent’s model fails before any of its reply was said', async () => {
    const agent = await world.agent({
      model: { provider: 'custom', model: BROKEN_MODEL },
      fallback_models: [{ provider: 'groq', model: GROQ_MODEL, temperature: 0.1 }],
    });
    const before = world.ai.chats.length;
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Tell me my balance.');
    await call.media.waitForHeard('You said Tell me my balance.');
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    // The broken model was asked first, then Groq on the platform's key with its own parameters.
    expect(chatsOf(call.callId).map((c) => c.body.model)).toEqual([BROKEN_MODEL]);
    const groq = world.ai.chats.slice(before).filter((c) => c.model === GROQ_MODEL);
    expect(groq.length).toBeGreaterThan(0);
    expect(groq[0].body).toMatchObject({ temperature: 0.1 });
    expect(groq[0].body).not.toHaveProperty('call');
    const answer = botLines(done.session.transcript).find((l: Any) => l.content.startsWith('You said'));
    expect(answer.providers).toMatchObject({ llm: 'groq', llm_model: GROQ_MODEL });
    expect(done.end_call_reason).not.toBe('llm_provider_failed');
    expect(done.model_usage).toEqual([
      expect.objectContaining({ provider: 'groq', model: GROQ_MODEL, paid_by: 'platform', replies: 1 }),
    ]);
  });
});
