// Agents on speech-to-speech models hold their calls on the model's own session, through the gateway: the
// partner's OpenAI and Google keys (checked live, against fakes of OpenAI Realtime and Gemini Live at
// MODEL_OPENAI_BASE_URL / MODEL_GOOGLE_BASE_URL), a sandbox carrier call and a browser session each talking to the
// model, the caller speaking over a long reply, the model calling the platform's end_call and a partner's
// function, the transcript written from the model's own transcription, and the call's model use recorded.
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import {
  BROWSER_SAMPLE_RATE,
  FRAME_MS,
  Resampler,
  synthesizeOfflineSpeech,
  TextSignalDecoder,
} from '@vap/media';
import { waitFor } from '@vap/testing';
import {
  echoOf,
  FakeGeminiLiveServer,
  FakeOpenAiRealtimeServer,
  type FakeRealtimeScript,
} from '@vap/llm/testing';
import { FunctionServer, startFunctionServer } from '../agents/function-server';
import { botLines, TIME_SCALE, userLines, VoiceWorld } from './voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const LONG =
  'We have three plans for homes and small offices, each with support every day of the week including holidays.';
const GOODBYE = 'Goodbye, and thank you for calling.';
const ORIGIN = 'https://shop.example.test';

/** What the fake models answer: end_call on a goodbye, a long answer about plans, the function on an order. */
function realtimeScript(functionName: () => string): FakeRealtimeScript {
  return (input) => {
    if (input.kind === 'tool_results') {
      const result = input.results[0]?.output ?? '';
      return { say: /shipped/.test(result) ? 'Your order has shipped.' : 'I could not find it.' };
    }
    const said = input.kind === 'caller' ? input.text : (input.lastUserText ?? '');
    if (/goodbye/i.test(said)) return { say: GOODBYE, toolCalls: [{ name: 'end_call', arguments: {} }] };
    if (/plans/i.test(said)) return { say: LONG };
    if (/order/i.test(said))
      return { say: 'Let me check.', toolCalls: [{ name: functionName(), arguments: { order_number: 42 } }] };
    return { say: echoOf(said) };
  };
}

describe('agents on speech-to-speech models', () => {
  let world: VoiceWorld;
  let openai: FakeOpenAiRealtimeServer;
  let gemini: FakeGeminiLiveServer;
  let functions: FunctionServer;
  let functionName = '';

  beforeAll(async () => {
    openai = await FakeOpenAiRealtimeServer.start({ apiKey: 'sk-partner-realtime-e2e' });
    gemini = await FakeGeminiLiveServer.start({ apiKey: 'partner-gemini-live-e2e' });
    functions = await startFunctionServer();
    world = await VoiceWorld.start({
      name: 'voice_speech_to_speech',
      providers: { llm: true },
      env: {
        MODEL_OPENAI_BASE_URL: openai.baseUrl,
        // One OpenAI key serves speech and models; it is checked where OpenAI speech is (the same API).
        SPEECH_OPENAI_BASE_URL: openai.baseUrl,
        MODEL_GOOGLE_BASE_URL: gemini.baseUrl,
        // The partner's function server listens on loopback with a certificate of the run's test CA.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '',
      },
    });
    openai.script = realtimeScript(() => functionName);
    gemini.script = realtimeScript(() => functionName);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await openai?.close();
    await gemini?.close();
    await functions?.close();
  });

  /** The partner's key for `provider`, checked live against its fake and stored. */
  /** The partner's keys, stored once per provider (the account holds one key per provider). */
  const stored = new Set<string>();
  async function storeKey(provider: 'openai' | 'google', apiKey: string): Promise<void> {
    if (stored.has(provider)) return;
    const res = await world.api('/provider-credentials', { body: { provider, api_key: apiKey } });
    expect(res.status).toBe(200);
    expect(res.body.data.provider_credential).toMatchObject({
      provider,
      used_for: expect.arrayContaining(['models']),
    });
    stored.add(provider);
  }

  /** A partner function the model may call, on the fake partner server. */
  async function orderFunction(): Promise<string> {
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
    return fn.body.data.id as string;
  }

  it('holds a carrier call on OpenAI Realtime: barge-in, end_call, the model’s transcription and its usage', async () => {
    await storeKey('openai', openai.apiKey);
    expect(openai.keyChecks.at(-1)).toEqual({ path: '/v1/models', apiKey: openai.apiKey });
    const agent = await world.agent({
      model: { provider: 'openai', model: 'gpt-realtime', voice: 'marin', temperature: 0.8 },
      intro_message: INTRO,
    });
    expect(agent.model).toMatchObject({ provider: 'openai', model: 'gpt-realtime', voice: 'marin' });
    const before = openai.connections.length;
    const call = await world.dial('carrier_b', agent.id);
    // The intro is the agent's own voice; the model opens its session with the partner's key and settings.
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    const connection = openai.connections[before];
    expect(connection).toMatchObject({ apiKey: openai.apiKey, model: 'gpt-realtime' });
    expect(connection.sessionUpdates[0]).toMatchObject({
      voice: 'marin',
      temperature: 0.8,
      turn_detection: { type: 'server_vad' },
    });
    expect((connection.sessionUpdates[0].tools as Any[]).map((t) => t.name)).toContain('end_call');

    // A long answer the caller speaks over: it stops, and the caller's words are answered.
    await call.media.say('Tell me about your plans.');
    const playedBefore = call.media.playedAgentAudio.length;
    await waitFor(() => call.media.playedAgentAudio.length > playedBefore + 40 || undefined, {
      timeoutMs: 30_000,
      description: 'the long answer to be playing',
    });
    await call.media.say('Stop, thank you.');
    await call.media.waitForHeard('You said Stop, thank you.');
    expect(call.media.clears).toBeGreaterThan(0);
    expect(call.media.heard.map((h) => h.text)).not.toContain(LONG);
    await call.media.waitUntilAgentSilent();

    // The model ends the call with the platform's tool.
    await call.media.say('That is all, goodbye.');
    await call.media.waitForHeard(GOODBYE);
    await world.hungUpByPlatform(call);
    const finished = await world.finished(call.callId);
    expect(finished.end_call_reason).toBe('agent_ended_call');

    const transcript = finished.session.transcript as Any[];
    expect(userLines(transcript).map((l) => l.content)).toEqual([
      'Tell me about your plans.',
      'Stop, thank you.',
      'That is all, goodbye.',
    ]);
    const bots = botLines(transcript);
    expect(bots[0]).toMatchObject({ content: INTRO, providers: { llm: null } });
    // The model's own lines (heard and spoken by it); end_call's message is the agent's voice's, in the model's turn.
    const model = bots.filter((l) => l.providers?.tts === 'openai');
    expect(bots.at(-1)).toMatchObject({
      content: 'Thank you for calling. Goodbye!',
      providers: { llm: 'openai', llm_model: 'gpt-realtime', tts: 'offline' },
    });
    expect(model.map((l) => l.providers)).toEqual(
      model.map(() => ({ stt: 'openai', llm: 'openai', llm_model: 'gpt-realtime', tts: 'openai' })),
    );
    const cut = model.find((l) => l.interrupted);
    expect(cut).toBeDefined();
    expect(LONG.startsWith(cut.content)).toBe(true);
    expect(cut.content.length).toBeLessThan(LONG.length);
    expect(model.map((l) => l.content)).toEqual(
      expect.arrayContaining(['You said Stop, thank you.', GOODBYE]),
    );
    expect(finished.session.tool_calls).toEqual([
      expect.objectContaining({ name: 'end_call', outcome: 'success' }),
    ]);
    // The session kept only what the caller heard of the cut answer.
    expect(connection.truncates).toHaveLength(1);
    expect(connection.closed).not.toBeNull();

    // The call's model use is what the model reported, on the partner's key.
    const sum = (part: 'inputTokens' | 'outputTokens') =>
      connection.responses.reduce((n, r) => n + r.usage[part], 0);
    expect(finished.model_usage).toEqual([
      {
        provider: 'openai',
        model: 'gpt-realtime',
        paid_by: 'account',
        input_tokens: sum('inputTokens'),
        output_tokens: sum('outputTokens'),
        // `replies` counts the lines of the model's turns (end_call's message included), as billing documents.
        replies: bots.filter((l) => l.providers?.llm === 'openai').length,
      },
    ]);
  }, 180_000);

  it('talks in a browser session on OpenAI Realtime, the model calling a partner function', async () => {
    const fnId = await orderFunction();
    const agent = await world.agent({
      model: { provider: 'openai', model: 'gpt-realtime' },
      intro_message: INTRO,
    });
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fnId}`, { method: 'POST' });
    expect(attached.status).toBe(200);
    const created = await world.api('/browser-sessions', {
      body: { agent_id: agent.id, allowed_origins: [ORIGIN] },
    });
    expect(created.status).toBe(200);
    const page = await BrowserPage.open(created.body.data.connect_url);
    await page.waitForHeard(INTRO);
    // The user speaks once the intro has played out (its line is written then), not over its last frames.
    await page.waitForAgentLine(INTRO);
    await page.say('Where is my order?');
    await page.waitForHeard('Your order has shipped.');
    expect(page.heard).toEqual([INTRO, 'Let me check.', 'Your order has shipped.']);
    const tools = page.of('tool');
    expect(tools).toEqual([
      { type: 'tool', name: functionName, status: 'running', arguments: { order_number: 42 } },
      {
        type: 'tool',
        name: functionName,
        status: 'done',
        outcome: 'success',
        latency_ms: expect.any(Number),
      },
    ]);
    // The person hangs up once the answer has played out (its line is written then): ended in the middle of it,
    // the transcript would rightly keep only what was heard.
    await page.waitForAgentLine('Your order has shipped.');
    page.send({ type: 'end' });
    await page.closed;
    const ended = await waitFor(
      async () => {
        const res = await world.api(`/browser-sessions/${created.body.data.id}`);
        const data = res.body.data;
        return data.status === 'completed' && data.session?.transcript ? data : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'the browser session to complete' },
    );
    const lines = (ended.session.transcript as Any[]).map((l) => [l.role, l.content, l.providers?.llm]);
    expect(lines).toEqual([
      ['bot', INTRO, null],
      ['user', 'Where is my order?', undefined],
      ['bot', 'Let me check.', 'openai'],
      ['bot', 'Your order has shipped.', 'openai'],
    ]);
    expect(ended.session.tool_calls).toEqual([
      expect.objectContaining({ name: functionName, arguments: { order_number: 42 }, outcome: 'success' }),
    ]);
  }, 180_000);

  it('holds a carrier call on Gemini Live: the partner’s key, barge-in, end_call and Google naming the lines', async () => {
    const catalog = await world.api('/models?provider=google');
    expect(catalog.status).toBe(200);
    const live = (catalog.body.data.models as Any[]).find((m) => m.capabilities.speech_to_speech);
    expect(live).toBeDefined();
    await storeKey('google', gemini.apiKey);
    const agent = await world.agent({
      model: { provider: 'google', model: live.model, voice: 'Puck' },
      intro_message: INTRO,
    });
    const before = gemini.connections.length;
    const call = await world.dial('carrier_a', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    const connection = gemini.connections[before];
    expect(connection).toMatchObject({ apiKey: gemini.apiKey, auth: 'header' });
    expect(connection.setup).toMatchObject({
      model: `models/${live.model}`,
      generationConfig: { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } } },
    });

    await call.media.say('Tell me about your plans.');
    const playedBefore = call.media.playedAgentAudio.length;
    await waitFor(() => call.media.playedAgentAudio.length > playedBefore + 40 || undefined, {
      timeoutMs: 30_000,
      description: 'the long answer to be playing',
    });
    await call.media.say('Stop, thank you.');
    await call.media.waitForHeard('You said Stop, thank you.');
    expect(call.media.clears).toBeGreaterThan(0);
    await call.media.waitUntilAgentSilent();
    await call.media.say('That is all, goodbye.');
    await call.media.waitForHeard(GOODBYE);
    await world.hungUpByPlatform(call);
    const finished = await world.finished(call.callId);
    expect(finished.end_call_reason).toBe('agent_ended_call');
    const model = botLines(finished.session.transcript).filter((l: Any) => l.providers?.tts === 'google');
    expect(model.map((l: Any) => l.providers)).toEqual(
      model.map(() => ({ stt: 'google', llm: 'google', llm_model: live.model, tts: 'google' })),
    );
    expect(model.some((l: Any) => l.interrupted)).toBe(true);
    expect(userLines(finished.session.transcript).map((l: Any) => l.content)).toContain('Stop, thank you.');
    expect(finished.model_usage).toEqual([
      expect.objectContaining({ provider: 'google', model: live.model, paid_by: 'account' }),
    ]);
    const turns = connection.turns.filter(
      (t) => t.status === 'completed' || t.status === 'waiting_for_tools',
    );
    expect(finished.model_usage[0].output_tokens).toBeGreaterThanOrEqual(
      turns.reduce((n, t) => n + t.usage.outputTokens, 0),
    );
  }, 180_000);
});

/**
 * A partner's page on a browser session, as a plain WebSocket: its microphone streams 20 ms frames on the media
 * clock (silence unless the user speaks), marks are echoed once played, the agent's words are read from its audio.
 */
class BrowserPage {
  readonly messages: Record<string, Any>[] = [];
  readonly heard: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly decoder = new TextSignalDecoder(BROWSER_SAMPLE_RATE);
  private readonly queue: Buffer[] = [];
  private readonly frameSamples = (BROWSER_SAMPLE_RATE * FRAME_MS) / 1000;
  private readonly mic: NodeJS.Timeout;

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => {
        clearInterval(this.mic);
        resolve({ code, reason: reason.toString() });
      }),
    );
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        const bytes = new Uint8Array(data as Buffer);
        this.heard.push(...this.decoder.push(new Int16Array(bytes.buffer, 0, bytes.length >> 1)));
        return;
      }
      const message = JSON.parse(String(data)) as Record<string, Any>;
      this.messages.push(message);
      if (message.type === 'mark') this.send({ type: 'played', name: message.name });
    });
    const silence = Buffer.alloc(this.frameSamples * 2);
    this.mic = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(this.queue.shift() ?? silence);
    }, FRAME_MS / TIME_SCALE);
  }

  static async open(url: string): Promise<BrowserPage> {
    const ws = new WebSocket(url, { origin: ORIGIN });
    // Listening before the socket opens: the server's first message may arrive with the upgrade's answer, in the
    // same read, and ws emits it right after 'open', before anything awaiting 'open' runs.
    const page = new BrowserPage(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`the upgrade was answered ${res.statusCode}`)),
      );
    });
    let closedWith: { code: number; reason: string } | null = null;
    void page.closed.then((closed) => (closedWith = closed));
    await waitFor(
      () => {
        if (closedWith) throw new Error(`the session closed with ${closedWith.code} ${closedWith.reason}`);
        return page.of('session.started')[0];
      },
      { timeoutMs: 30_000, description: 'session.started' },
    );
    return page;
  }

  send(message: Record<string, Any>): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  of(type: string): Record<string, Any>[] {
    return this.messages.filter((m) => m.type === type);
  }

  waitForHeard(text: string): Promise<string> {
    return waitFor(() => this.heard.find((h) => h === text), {
      timeoutMs: 30_000,
      description: `the page to hear ${text} (heard ${JSON.stringify(this.heard)})`,
    });
  }

  /** The agent's line `text` has played out and was written to the transcript (a final agent transcript). */
  waitForAgentLine(text: string): Promise<true> {
    return waitFor(
      () => this.of('transcript').some((m) => m.role === 'agent' && m.final && m.text === text) || undefined,
      { timeoutMs: 30_000, description: `the agent's line ${text} to be written` },
    );
  }

  /** The user says `text` into the microphone; resolves once its last frame went out. */
  async say(text: string): Promise<void> {
    const resampler = new Resampler(8000, BROWSER_SAMPLE_RATE);
    const speech = resampler.push(await synthesizeOfflineSpeech(text));
    for (let at = 0; at < speech.length; at += this.frameSamples) {
      const frame = new Int16Array(this.frameSamples);
      frame.set(speech.subarray(at, at + this.frameSamples));
      this.queue.push(Buffer.from(frame.buffer));
    }
    await waitFor(() => this.queue.length === 0 || undefined, {
      timeoutMs: 30_000,
      intervalMs: 5,
      description: `the page to say ${text}`,
    });
  }
}
