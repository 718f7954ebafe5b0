// Browser sessions as a page's client sees them on the wire (a plain WebSocket client stands in for the page):
// a refused connection is opened and closed at once with the documented code and cause, and the session records
// the refusal (GET /browser-sessions/{id} last_refusal); a session without a microphone is driven by typed lines
// (user_text) alone, no speech provider anywhere, and the platform's offline model calls the partner's function
// a typed line names, against a fake partner server.
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { waitFor } from '@vap/testing';
import { FunctionServer, startFunctionServer } from '../agents/function-server';
import { VoiceWorld } from '../voice/voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const ORIGIN = 'https://shop.example.test';
const EVIL = 'https://evil.example.test';
const INTRO = 'Hello, this is Maya from Acme.';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

type Message = Record<string, Any>;

/** The page's side of a session's socket: every text message parsed, marks echoed as played, the close. */
class PageSocket {
  readonly messages: Message[] = [];
  binary = 0;
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly ws: WebSocket;

  constructor(url: string, origin: string) {
    this.ws = new WebSocket(url, { origin });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`the upgrade was answered ${res.statusCode}`)),
      );
    });
    this.closed = new Promise((resolve) =>
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    this.ws.on('error', () => undefined);
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) {
        this.binary++;
        return;
      }
      const message = JSON.parse(String(data)) as Message;
      this.messages.push(message);
      // The page plays the agent's audio: a mark comes back once what was queued before it played.
      if (message.type === 'mark') this.send({ type: 'played', name: message.name });
    });
  }

  send(message: Message): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  of(type: string): Message[] {
    return this.messages.filter((m) => m.type === type);
  }

  async until(predicate: () => boolean, description: string, timeoutMs = 30_000): Promise<void> {
    await waitFor(async () => predicate() || undefined, { timeoutMs, intervalMs: 50, description });
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }
}

describe('browser sessions: refusals a page can read, and typed caller turns', () => {
  let world: VoiceWorld;
  let functions: FunctionServer;

  beforeAll(async () => {
    functions = await startFunctionServer();
    world = await VoiceWorld.start({
      name: 'browser_typed',
      // No AI provider at all: the platform's offline engines hear, think and speak.
      providers: {},
      // The partner's fake server listens on loopback with a certificate of the run's test CA.
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '' },
    });
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await functions?.close();
  });

  async function createSession(agentId: string): Promise<{ id: string; connect_url: string }> {
    const res = await world.api('/browser-sessions', {
      method: 'POST',
      body: { agent_id: agentId, allowed_origins: [ORIGIN] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.last_refusal).toBeNull();
    return res.body.data;
  }

  const sessionOf = async (id: string) => {
    const res = await world.api(`/browser-sessions/${id}`);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  it('closes a page on another origin with 4403 origin_not_allowed and a reused token with 4401 token_used; the session records each', async () => {
    const agent = await world.agent({ intro_message: INTRO });
    const session = await createSession(agent.id);

    const evil = new PageSocket(session.connect_url, EVIL);
    await evil.opened;
    expect(await evil.closed).toEqual({ code: 4403, reason: 'origin_not_allowed' });
    // Nothing flowed: no session.started, no audio.
    expect(evil.messages).toEqual([]);
    expect(evil.binary).toBe(0);
    const refusedOrigin = await sessionOf(session.id);
    expect(refusedOrigin.status).toBe('pending');
    expect(refusedOrigin.last_refusal).toEqual({
      reason: 'origin_not_allowed',
      origin: EVIL,
      message: expect.stringContaining(EVIL),
      at: expect.stringMatching(ISO),
    });

    // The refusal spent nothing: the partner's page connects with the same connect_url.
    const page = new PageSocket(session.connect_url, ORIGIN);
    await page.until(() => page.of('session.started').length === 1, 'session.started');
    expect(page.messages[0]).toEqual({ type: 'session.started', session_id: session.id });

    // The same connect_url again, while the first page talks: refused, the first goes on.
    const again = new PageSocket(session.connect_url, ORIGIN);
    await again.opened;
    expect(await again.closed).toEqual({ code: 4401, reason: 'token_used' });
    expect(again.messages).toEqual([]);
    const refusedToken = await sessionOf(session.id);
    expect(refusedToken.status).toBe('active');
    expect(refusedToken.last_refusal).toMatchObject({ reason: 'token_used', origin: ORIGIN });
    expect(Date.parse(refusedToken.last_refusal.at)).toBeGreaterThanOrEqual(
      Date.parse(refusedOrigin.last_refusal.at),
    );
    // The list shows it too.
    const list = await world.api(`/browser-sessions?agent_id=${agent.id}`);
    expect(list.body.data.browser_sessions.find((s: Any) => s.id === session.id)?.last_refusal).toMatchObject(
      {
        reason: 'token_used',
      },
    );
    expect(page.open).toBe(true);

    page.send({ type: 'end' });
    expect((await page.closed).code).toBe(1000);
  }, 90_000);

  it('runs a session on typed lines alone: the agent calls the function a line names, and the transcript shows it all', async () => {
    const unique = randomBytes(3).toString('hex');
    const name = `check_order_${unique}`;
    const path = `/orders_${unique}`;
    functions.answer(path, { status: 200, body: JSON.stringify({ status: 'shipped', eta: 'Friday' }) });
    const fn = await world.api('/custom-functions', {
      body: {
        name,
        description: 'Looks up where an order is by its number',
        url: `${functions.url}${path}`,
        parameters: {
          type: 'object',
          properties: { order_number: { type: 'integer', minimum: 1 } },
          required: ['order_number'],
          additionalProperties: false,
        },
      },
    });
    expect(fn.status).toBe(200);
    const agent = await world.agent({ intro_message: INTRO });
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);
    const session = await createSession(agent.id);

    const page = new PageSocket(session.connect_url, ORIGIN);
    await page.until(() => page.of('session.started').length === 1, 'session.started');
    // No microphone: the page says so once, and sends no audio at all.
    page.send({ type: 'mute', muted: true });
    const agentLines = () => page.of('transcript').filter((m) => m.role === 'agent' && m.final);
    await page.until(() => agentLines().some((m) => m.text === INTRO), 'the intro');

    // Too long a line is answered, not taken, and the session goes on.
    page.send({ type: 'user_text', text: 'x'.repeat(1001) });
    await page.until(() => page.of('error').length === 1, 'the error');
    expect(page.of('error')[0]).toMatchObject({ code: 'invalid_user_text' });

    // The offline model calls a partner function when the line names it (a real model decides by itself).
    const typed = `Please check order ${unique}, the order number is 42.`;
    page.send({ type: 'user_text', text: typed });
    const answer = 'Done. status shipped, eta Friday.';
    await page.until(() => agentLines().some((m) => m.text === answer), "the agent's answer");
    expect(page.of('transcript').filter((m) => m.role === 'user')).toEqual([
      { type: 'transcript', role: 'user', text: typed, final: true, typed: true },
    ]);
    const tools = page.of('tool');
    expect(tools).toEqual([
      { type: 'tool', name, status: 'running', arguments: { order_number: 42 } },
      { type: 'tool', name, status: 'done', outcome: 'success', latency_ms: expect.any(Number) },
    ]);
    // The answer was spoken too: the agent's audio reached the page.
    expect(page.binary).toBeGreaterThan(0);
    const sent = functions.requests.filter((r) => new URL(r.url, 'https://x').pathname === path);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].rawBody)).toMatchObject({ arguments: { order_number: 42 } });

    page.send({ type: 'end' });
    expect((await page.closed).code).toBe(1000);
    const ended = await waitFor(
      async () => {
        const data = await sessionOf(session.id);
        return data.status === 'completed' && data.session.transcript ? data : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'the session completed with its transcript' },
    );
    expect(ended.end_reason).toBe('caller_ended');
    expect(ended.duration_secs).toEqual(expect.any(Number));
    expect(ended.last_refusal).toBeNull();
    const lines = (ended.session.transcript as Any[]).map((l) => [l.role, l.content]);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['bot', INTRO],
        ['user', typed],
        ['bot', answer],
      ]),
    );
    expect(lines.findIndex((l) => l[1] === typed)).toBeLessThan(lines.findIndex((l) => l[1] === answer));
    expect(ended.session.tool_calls).toEqual([
      expect.objectContaining({ name, arguments: { order_number: 42 }, outcome: 'success' }),
    ]);
  }, 120_000);
});
