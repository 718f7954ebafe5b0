// The console's traffic on a gateway of its own with the contract's per-key limits (10 a minute on /calls) and
// low console limits: the console counts per session and account, never against an API key; its own limit
// answers 429; and its live views (server-sent events under /console/api/live) push a call's changes until it
// ends, refuse another account's id before any event, bound the views a session holds, and let go of a view
// whose client went away.
import { randomBytes } from 'node:crypto';
import { Platform } from '@vap/testing';
import { api, createPartner, startRunGateways } from '../../support';
import { callee, VOICE_ID } from '../calls/call-fixtures';
import { ConsoleAnswer, ConsoleClient, inviteUser } from './console-fixtures';

const PASSWORD = 'a long enough passphrase';
const SESSION_LIMIT = 40;
const STREAMS_PER_SESSION = 2;
const email = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;
const TERMINAL = ['completed', 'failed', 'no_answer', 'busy', 'canceled'];

interface SseEvent {
  event: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A live view read as a plain HTTP client would: the answer, and its events as they arrive. */
class LiveView {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  /** Settles when the server closed the stream (or the client did). */
  readonly closed: Promise<void>;
  private readonly controller: AbortController;
  private waiters: (() => void)[] = [];

  private constructor(
    readonly res: Response,
    controller: AbortController,
  ) {
    this.controller = controller;
    this.closed = this.read();
  }

  static async open(
    client: ConsoleClient,
    path: string,
  ): Promise<{ res: Response; view?: LiveView; body?: ConsoleAnswer['body'] }> {
    const controller = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (client.cookie) headers.cookie = client.cookie;
    const res = await fetch(`${client.baseUrl}/console/api/live${path}`, {
      headers,
      signal: controller.signal,
    });
    if (res.status !== 200) return { res, body: await res.json() };
    return { res, view: new LiveView(res, controller) };
  }

  close(): void {
    this.controller.abort();
  }

  /** Waits until an event satisfies `test` (or fails after `ms`). */
  async until(test: (e: SseEvent) => boolean, ms: number): Promise<SseEvent> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.events.find(test);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no such event within ${ms} ms; got ${this.events.map((e) => e.event).join(', ')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 250);
      });
    }
  }

  private async read(): Promise<void> {
    const reader = this.res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          this.parse(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      // Aborted by the test.
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  private parse(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) this.events.push({ event, data: JSON.parse(data.join('\n')) });
    for (const wake of this.waiters.splice(0)) wake();
  }
}

describe('console rate limits and live views', () => {
  let platform: Platform;
  let partnerId: string;
  let apiKey: string;
  let userEmail: string;
  let agentId: string;
  const views: LiveView[] = [];

  /** A console client on this test's gateway with a session of its own. */
  async function signedIn(): Promise<ConsoleClient> {
    const client = new ConsoleClient(platform.gatewayUrl);
    expect((await client.signIn(userEmail, PASSWORD)).status).toBe(200);
    return client;
  }

  async function open(client: ConsoleClient, path: string) {
    const opened = await LiveView.open(client, path);
    if (opened.view) views.push(opened.view);
    return opened;
  }

  beforeAll(async () => {
    platform = await startRunGateways(1, {
      RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE: '12',
      RATE_LIMIT_CONSOLE_SESSION_PER_MINUTE: String(SESSION_LIMIT),
      CONSOLE_LIVE_STREAMS_PER_SESSION: String(STREAMS_PER_SESSION),
      // The slowest re-check: within a test, a live view changes only on the calls service's events.
      CONSOLE_LIVE_RECHECK_MS: '60000',
    });
    const created = await createPartner({ name: `Console Live Co ${Date.now()}`, balance_inr: 100 });
    partnerId = created.partner.id;
    apiKey = created.apiKey;
    userEmail = email('live');
    const link = await inviteUser(partnerId, { email: userEmail, name: 'Lena Live', role: 'owner' });
    expect((await new ConsoleClient(platform.gatewayUrl).useLink(link, PASSWORD)).status).toBe(200);
    const agent = await api('/agent', {
      method: 'POST',
      key: apiKey,
      body: { agent_name: 'Live agent', prompt: 'You help.', voice_id: VOICE_ID, agent_type: 'outbound' },
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.data.id;
  }, 120_000);

  afterEach(() => {
    for (const view of views.splice(0)) view.close();
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it("polls a call far beyond the API key's 10 a minute without a 429, and leaves the key's /calls budget whole", async () => {
    const client = await signedIn();
    const started = await client.request('POST', '/v2/calls/start', {
      body: { agent_id: agentId, to_number: callee('01') },
    });
    expect(started.status).toBe(200);
    const callId = started.body.data.call_id as string;
    for (let i = 0; i < 25; i++) {
      const polled = await client.request('GET', `/v2/calls/${callId}`);
      expect({ i, status: polled.status }).toEqual({ i, status: 200 });
      expect(polled.headers.get('x-ratelimit-limit')).toBe(String(SESSION_LIMIT));
    }
    // The key's window (10) and the account's API window (12 here) never saw the console's 26 requests.
    for (let i = 0; i < 10; i++) {
      const listed = await api('/calls?limit=1', { key: apiKey, baseUrl: platform.gatewayUrl });
      expect({ i, status: listed.status }).toEqual({ i, status: 200 });
      if (i === 0) expect(listed.headers.get('x-ratelimit-remaining')).toBe('9');
    }
    const over = await api('/calls?limit=1', { key: apiKey, baseUrl: platform.gatewayUrl });
    expect(over.status).toBe(429);
    // ...while the console keeps its own budget.
    expect((await client.request('GET', `/v2/calls/${callId}`)).status).toBe(200);
  });

  it('answers 429 RATE_LIMITED with Retry-After past the console session limit, on the mirror and its own routes', async () => {
    const client = await signedIn();
    for (let i = 1; i <= SESSION_LIMIT; i++) {
      const res = await client.request('GET', '/v2/calls?limit=1');
      expect({ i, status: res.status }).toEqual({ i, status: 200 });
    }
    const limited = await client.request('GET', '/v2/calls?limit=1');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(limited.body.error.message).toMatch(/console session/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await client.request('GET', '/session')).status).toBe(429);
    // Another session of the same user has a budget of its own.
    expect((await (await signedIn()).request('GET', '/session')).status).toBe(200);
  });

  it('pushes snapshots of a call as its status changes, then end, and closes', async () => {
    const client = await signedIn();
    const started = await client.request('POST', '/v2/calls/start', {
      body: { agent_id: agentId, to_number: callee('11') },
    });
    expect(started.status).toBe(200);
    const callId = started.body.data.call_id as string;
    const { res, view } = await open(client, `/calls/${callId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toMatch(/no-cache/);
    expect(res.headers.get('x-accel-buffering')).toBe('no');

    const end = await view!.until((e) => e.event === 'end', 90_000);
    expect(end.data).toEqual({ reason: 'ended' });
    await view!.closed; // the server closed the stream after end
    const snapshots = view!.events.filter((e) => e.event === 'snapshot').map((e) => e.data);
    const statuses = snapshots.map((s) => s.status);
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    expect(TERMINAL).not.toContain(statuses[0]);
    expect(new Set(statuses).size).toBeGreaterThanOrEqual(2);
    expect(view!.events.at(-1)!.event).toBe('end');
    // Each snapshot differs from the one before; the last is what GET /calls/{id} answers in data.
    for (let i = 1; i < snapshots.length; i++)
      expect(JSON.stringify(snapshots[i])).not.toBe(JSON.stringify(snapshots[i - 1]));
    const last = snapshots.at(-1);
    expect(TERMINAL).toContain(last.status);
    expect(last.session.processing_complete).toBe(true);
    const read = await client.request('GET', `/v2/calls/${callId}`);
    expect(last).toEqual(read.body.data);
  }, 120_000);

  it("refuses another account's call, an unknown id and a signed-out client before any event", async () => {
    const client = await signedIn();
    const other = await createPartner({ name: `Other Live Co ${Date.now()}`, balance_inr: 100 });
    const otherAgent = await api('/agent', {
      method: 'POST',
      key: other.apiKey,
      body: { agent_name: 'Other agent', prompt: 'You help.', voice_id: VOICE_ID, agent_type: 'outbound' },
    });
    const otherCall = await api('/calls/start', {
      method: 'POST',
      key: other.apiKey,
      body: { agent_id: otherAgent.body.data.id, to_number: callee('01') },
    });
    expect(otherCall.status).toBe(200);
    for (const path of [
      `/calls/${otherCall.body.data.call_id}`,
      `/calls/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
      '/calls/not-an-id',
      `/browser-sessions/${otherCall.body.data.call_id}`,
    ]) {
      const { res, body } = await open(client, path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
    const { res, body } = await open(
      new ConsoleClient(platform.gatewayUrl),
      `/calls/${otherCall.body.data.call_id}`,
    );
    expect(res.status).toBe(401);
    expect(body.error.code).toBe('UNAUTHORIZED');
  });

  it('holds at most the per-session number of views, and frees a slot when its client goes away', async () => {
    const client = await signedIn();
    const created = await client.request('POST', '/v2/browser-sessions', {
      body: { agent_id: agentId, allowed_origins: ['https://app.example.test'] },
    });
    expect(created.status).toBe(200);
    const path = `/browser-sessions/${created.body.data.id}`;
    const first = await open(client, path);
    const second = await open(client, path);
    for (const opened of [first, second]) {
      expect(opened.res.status).toBe(200);
      const snapshot = await opened.view!.until((e) => e.event === 'snapshot', 5000);
      expect(snapshot.data).toMatchObject({ id: created.body.data.id, status: 'pending' });
      expect(snapshot.data).not.toHaveProperty('access_token');
    }
    const third = await open(client, path);
    expect(third.res.status).toBe(429);
    expect(third.body).toMatchObject({ success: false, error: { code: 'LIMIT_REACHED' } });
    // Another session of the account is not held back by this one's views.
    const elsewhere = await open(await signedIn(), path);
    expect(elsewhere.res.status).toBe(200);
    elsewhere.view!.close();

    first.view!.close();
    await first.view!.closed;
    let reopened = await open(client, path);
    for (let i = 0; i < 10 && reopened.res.status === 429; i++) {
      await new Promise((r) => setTimeout(r, 300));
      reopened = await open(client, path);
    }
    expect(reopened.res.status).toBe(200);
    expect(second.view!.events.some((e) => e.event === 'end')).toBe(false);
  });
});
