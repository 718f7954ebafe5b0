// An agent on Google Gemini answers carrier calls with the partner's own Google key: the key is checked live
// against a fake of the Gemini API (MODEL_GOOGLE_BASE_URL), which records what each streamGenerateContent asked
// (the key, generationConfig, systemInstruction, contents, tools) and streams the replies scripted below: text in
// pieces, a partner's function called as a functionCall and its answer spoken, and the platform's end_call (its
// goodbye the agent's end_call_message).
// The catalog lists Gemini's chat models and its Live models as speech to speech with their voices.
import { randomBytes } from 'node:crypto';
import { waitFor } from '@vap/testing';
import { FakeGeminiServer, type FakeGeminiReply, type FakeGeminiRequest } from '@vap/llm/testing';
import { FunctionServer, startFunctionServer } from '../agents/function-server';
import { botLines, VoiceWorld } from './voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const MODEL = 'gemini-2.5-flash';
const PARTNER_KEY = 'AIzaSyPartner-gemini-e2e-0123456789abcd';
const GOODBYE = 'Goodbye, and thank you for calling.';

/** The caller's latest words: the last text of a user turn that is not a note of the platform's. */
function lastUserText(request: FakeGeminiRequest): string {
  for (const content of [...request.contents].reverse()) {
    if (content.role !== 'user') continue;
    for (const part of [...(content.parts ?? [])].reverse())
      if (typeof part.text === 'string' && !part.text.startsWith('(Note')) return part.text;
  }
  return '';
}

/** Gemini's side: the function's answer spoken, the function on an order, end_call on a goodbye, else an echo. */
function gemini(functionName: () => string): (request: FakeGeminiRequest) => FakeGeminiReply {
  return (request) => {
    const lastTurn = request.contents[request.contents.length - 1];
    const answered = lastTurn?.parts?.find((p) => p.functionResponse)?.functionResponse as Any;
    if (answered)
      return {
        kind: 'reply',
        text: [
          /shipped/.test(JSON.stringify(answered.response))
            ? 'Your order has shipped.'
            : 'I could not find it.',
        ],
      };
    const said = lastUserText(request);
    if (/goodbye/i.test(said))
      return {
        kind: 'reply',
        functionCalls: [{ name: 'end_call', args: { reason: 'the caller said goodbye' } }],
      };
    if (/order/i.test(said))
      return { kind: 'reply', functionCalls: [{ name: functionName(), args: { order_number: 42 } }] };
    return {
      kind: 'reply',
      text: ['You said', ` ${said.replace(/[.?!]+$/, '')}.`],
      usage: { inputTokens: 120, outputTokens: 8 },
    };
  };
}

describe('an agent on Google Gemini in carrier calls', () => {
  let world: VoiceWorld;
  let fake: FakeGeminiServer;
  let functions: FunctionServer;
  let functionName = '';

  beforeAll(async () => {
    fake = await FakeGeminiServer.start({ apiKey: PARTNER_KEY });
    fake.respond = gemini(() => functionName);
    functions = await startFunctionServer();
    world = await VoiceWorld.start({
      name: 'voice_gemini',
      providers: { llm: true },
      env: {
        MODEL_GOOGLE_BASE_URL: fake.baseUrl,
        // The partner's function server listens on loopback with a certificate of the run's test CA.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '',
      },
    });
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await fake?.close();
    await functions?.close();
  });

  it('checks the partner’s Google key with Google before storing it: a key Google does not know is refused', async () => {
    const refused = await world.api('/provider-credentials', {
      body: { provider: 'google', api_key: 'AIzaSyNot-the-partner-key-0123456789ab' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(refused.body.error)).toMatch(/Google Gemini refused the key: API key not valid/);
    expect(JSON.stringify(refused.body)).not.toContain('AIzaSyNot');

    const stored = await world.api('/provider-credentials', {
      body: { provider: 'google', api_key: PARTNER_KEY },
    });
    expect(stored.status).toBe(200);
    expect(stored.body.data.provider_credential).toMatchObject({
      provider: 'google',
      used_for: expect.arrayContaining(['models']),
    });
    expect(fake.keyChecks.slice(-2)).toEqual([
      { apiKey: 'AIzaSyNot-the-partner-key-0123456789ab', status: 400 },
      { apiKey: PARTNER_KEY, status: 200 },
    ]);
  });

  it('lists Gemini’s chat models and its Live models as speech to speech with their voices', async () => {
    const catalog = await world.api('/models?provider=google');
    expect(catalog.status).toBe(200);
    const models = catalog.body.data.models as Any[];
    expect(models.find((m) => m.model === MODEL)).toMatchObject({
      provider: 'google',
      provider_label: 'Google Gemini',
      capabilities: { tools: true, speech_to_speech: false },
      context_window: 1_048_576,
      parameters: { temperature_min: 0, temperature_max: 2, max_tokens_max: 65_536 },
      availability: 'account_key',
    });
    const live = models.find((m) => m.model === 'gemini-live-2.5-flash-preview');
    expect(live).toMatchObject({ capabilities: { speech_to_speech: true }, availability: 'account_key' });
    expect(live.voices).toEqual(expect.arrayContaining(['Puck', 'Charon', 'Kore', 'Fenrir', 'Aoede']));
  });

  it('answers a call on the partner’s key with the agent’s parameters, runs a function and end_call Gemini streamed, each line naming Gemini', async () => {
    const unique = randomBytes(3).toString('hex');
    const path = `/orders_${unique}`;
    functionName = `check_order_${unique}`;
    functions.answer(path, { status: 200, body: JSON.stringify({ status: 'shipped' }) });
    const fn = await world.api('/custom-functions', {
      body: {
        name: functionName,
        description: 'Looks up where an order is by its number',
        url: `${functions.url}${path}`,
        parameters: {
          type: 'object',
          properties: { order_number: { type: 'integer', minimum: 1 } },
          required: ['order_number'],
        },
      },
    });
    expect(fn.status).toBe(200);
    const agent = await world.agent({
      prompt: `You are Maya from Acme (Gemini test ${unique}). Keep answers short.`,
      end_call_enabled: true,
      end_call_message: GOODBYE,
      model: { provider: 'google', model: MODEL, temperature: 0.3, max_tokens: 200, top_p: 0.9 },
    });
    expect(agent.model).toMatchObject({
      provider: 'google',
      model: MODEL,
      temperature: 0.3,
      max_tokens: 200,
    });
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);

    const before = fake.requests.length;
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('I would like to know my plan.');
    await call.media.waitForHeard('You said I would like to know my plan.');
    await call.media.waitUntilAgentSilent();

    // The partner's key, the agent's parameters as Gemini names them, its prompt and its tools.
    const first = fake.requests[before];
    expect(first).toMatchObject({
      apiKey: PARTNER_KEY,
      model: MODEL,
      generationConfig: { temperature: 0.3, maxOutputTokens: 200, topP: 0.9 },
    });
    expect(first.systemInstruction?.parts?.[0]?.text).toContain(`Gemini test ${unique}`);
    const declared = (first.tools?.[0]?.functionDeclarations ?? []).map((d) => d.name);
    expect(declared).toEqual(expect.arrayContaining(['end_call', functionName]));

    // A functionCall Gemini streamed runs the partner's function; its answer goes back as a functionResponse.
    await call.media.say('Where is my order?');
    await call.media.waitForHeard('Your order has shipped.');
    await call.media.waitUntilAgentSilent();
    await waitFor(
      () => functions.requests.some((r) => new URL(r.url, 'https://x').pathname === path) || undefined,
      {
        timeoutMs: 10_000,
        description: 'the partner function to be called',
      },
    );
    const answeredTurn = fake.requests
      .slice(before)
      .flatMap((r) => r.contents[r.contents.length - 1]?.parts ?? [])
      .find((p) => p.functionResponse);
    expect(answeredTurn?.functionResponse).toMatchObject({ name: functionName });
    expect(JSON.stringify(answeredTurn?.functionResponse)).toContain('shipped');

    // end_call, streamed by Gemini after its goodbye: the platform hangs up.
    await call.media.say('Thank you, goodbye.');
    await call.media.waitForHeard(GOODBYE);
    await world.hungUpByPlatform(call);

    const transcript = await world.transcript(call.callId, (lines) =>
      botLines(lines).some((l) => l.content === 'Your order has shipped.'),
    );
    for (const said of ['You said I would like to know my plan.', 'Your order has shipped.'])
      expect(botLines(transcript).find((l) => l.content === said)?.providers).toMatchObject({
        llm: 'google',
        llm_model: MODEL,
      });
    const done = await world.finished(call.callId);
    expect(done.session.tool_calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: functionName, arguments: { order_number: 42 }, outcome: 'success' }),
        expect.objectContaining({ name: 'end_call', kind: 'builtin', outcome: 'success' }),
      ]),
    );
    expect(fake.requests.slice(before).every((r) => r.apiKey === PARTNER_KEY)).toBe(true);
  }, 180_000);
});
