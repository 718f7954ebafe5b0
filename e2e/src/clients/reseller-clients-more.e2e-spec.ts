// A reseller's clients beyond creation: their API keys managed by the reseller, a funding retried with an
// Idempotency-Key, and the clients stopping and resuming with their reseller's account.
import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { Platform } from '@vap/testing';
import { adminApi, api, createPartner, e2eEnv, startRunGateways } from '../../support';
import { callee, VOICE_ID } from '../calls/call-fixtures';
import { ConsoleClient, inviteUser } from '../console/console-fixtures';

jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const codec = JSONCodec();

/** MAX_ACTIVE_API_KEYS: the active keys an account may hold. */
const MAX_ACTIVE_API_KEYS = 20;

async function reseller(balance_inr = 1000): Promise<{ id: string; key: string }> {
  const { partner, apiKey } = await createPartner({ balance_inr, concurrency_limit: 10 });
  const marked = await adminApi(`/partners/${partner.id}`, { method: 'PATCH', body: { reseller: true } });
  expect(marked.status).toBe(200);
  return { id: partner.id, key: apiKey };
}

async function createClient(key: string, body: Record<string, unknown> = {}): Promise<Loose> {
  const res = await api('/clients', { method: 'POST', key, body: { name: 'Acme Clinics', ...body } });
  if (res.status !== 200)
    throw new Error(`POST /clients answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function balance(key: string): Promise<number> {
  const res = await api('/billing/balance', { key });
  expect(res.status).toBe(200);
  return res.body.data.balance_inr;
}

async function transfers(key: string): Promise<Loose[]> {
  const res = await api('/billing/transactions?limit=100&type=transfer', { key });
  expect(res.status).toBe(200);
  return res.body.data.transactions;
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

describe('reseller clients: keys, idempotent funding, suspension with the reseller', () => {
  it('lists, issues (shown once, within the key limit) and revokes a client’s keys, audited; others get 404', async () => {
    const r = await reseller();
    const { client, api_key: firstKey, key: first } = await createClient(r.key);
    const keysPath = `/clients/${client.id}/api-keys`;

    const listed = await api(keysPath, { key: r.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.api_keys).toEqual([
      expect.objectContaining({ id: first.id, prefix: first.prefix, name: 'default', revoked_at: null }),
    ]);
    // Summaries only: the key itself is nowhere in the answer.
    expect(JSON.stringify(listed.body)).not.toContain(firstKey);
    expect(listed.body.data.api_keys[0]).not.toHaveProperty('api_key');

    const issued = await api(keysPath, {
      method: 'POST',
      key: r.key,
      body: { name: 'ci', scopes: ['agents:read'] },
    });
    expect(issued.status).toBe(200);
    const newKey: string = issued.body.data.api_key;
    expect(newKey).toMatch(/^rg_live_/);
    expect(issued.body.data.key).toMatchObject({ name: 'ci', scopes: ['agents:read'], revoked_at: null });
    // The key is the client's, limited to its scopes.
    expect((await api('/agent', { key: newKey })).status).toBe(200);
    const scoped = await api('/agent', {
      method: 'POST',
      key: newKey,
      body: { agent_name: 'x', prompt: 'p', voice_id: VOICE_ID, agent_type: 'outbound' },
    });
    expect(scoped.status).toBe(403);
    const afterIssue = await api(keysPath, { key: r.key });
    expect(afterIssue.body.data.api_keys.map((k: Loose) => k.id)).toEqual([
      first.id,
      issued.body.data.key.id,
    ]);
    expect(JSON.stringify(afterIssue.body)).not.toContain(newKey);

    for (const body of [{ scopes: ['nope:read'] }, { scopes: [] }, { name: '' }, { extra: 1 }]) {
      const bad = await api(keysPath, { method: 'POST', key: r.key, body });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }

    // Revoked: 401 at once (the key was just used, so this gateway had it cached).
    const revoked = await api(`${keysPath}/${issued.body.data.key.id}`, { method: 'DELETE', key: r.key });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toEqual(expect.any(String));
    const refused = await api('/agent', { key: newKey });
    expect(refused.status).toBe(401);
    expect((await api('/agent', { key: firstKey })).status).toBe(200);
    // Revoking a revoked key changes nothing; an unknown key is 404.
    const again = await api(`${keysPath}/${issued.body.data.key.id}`, { method: 'DELETE', key: r.key });
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at);
    expect((await api(`${keysPath}/${randomUUID()}`, { method: 'DELETE', key: r.key })).status).toBe(404);

    // The per-account limit: the client holds one active key, so 19 more fit and the next is refused.
    for (let i = 1; i < MAX_ACTIVE_API_KEYS; i += 1) {
      const more = await api(keysPath, { method: 'POST', key: r.key, body: { name: `k${i}` } });
      expect(more.status).toBe(200);
    }
    const over = await api(keysPath, { method: 'POST', key: r.key, body: { name: 'one too many' } });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('LIMIT_REACHED');

    // Each request on the client's keys is in the client's audit, with the reseller's key (a body the
    // validation refused never reached the client: not audited). 2 lists, 20 issues, 1 refusal, 3 revocations.
    const entries = await until('the audit of the key requests', async () => {
      const res = await api(`/clients/${client.id}/audit?limit=100`, { key: r.key });
      const found = (res.body.data.entries as Loose[]).filter((e) => e.path.includes('/api-keys'));
      return found.length >= 26 ? found : undefined;
    });
    expect(entries).toHaveLength(26);
    const kinds = new Set(entries.map((e) => `${e.method} ${e.status}`));
    expect(kinds).toEqual(new Set(['GET 200', 'POST 200', 'POST 429', 'DELETE 200', 'DELETE 404']));
    expect(entries.every((e) => e.path.startsWith(`/api/v2/clients/${client.id}/api-keys`))).toBe(true);

    // Another reseller, and an account that is no reseller, learn nothing.
    const other = await reseller();
    expect((await api(keysPath, { key: other.key })).status).toBe(404);
    expect((await api(keysPath, { method: 'POST', key: other.key, body: {} })).status).toBe(404);
    const steal = await api(`${keysPath}/${first.id}`, { method: 'DELETE', key: other.key });
    expect(steal.status).toBe(404);
    expect((await api('/agent', { key: firstKey })).status).toBe(200);
    const plain = await createPartner();
    expect((await api(keysPath, { key: plain.apiKey })).status).toBe(403);

    // Through the console, as on its own key page: owners and admins manage the client's keys, a developer
    // reads them only.
    const developer = new ConsoleClient();
    const link = await inviteUser(r.id, {
      email: `dev-${randomUUID()}@example.com`,
      name: 'Developer',
      role: 'developer',
    });
    expect((await developer.useLink(link, 'correct horse battery staple')).status).toBe(200);
    expect((await developer.request('GET', `/v2${keysPath}`)).status).toBe(200);
    const notTheirs = await developer.request('POST', `/v2${keysPath}`, { body: { name: 'dev' } });
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.error.message).toBe('The developer role cannot manage API keys');
    expect((await developer.request('DELETE', `/v2${keysPath}/${first.id}`)).status).toBe(403);
    expect((await api('/agent', { key: firstKey })).status).toBe(200);
  });

  it('funds once per Idempotency-Key: a retry replays the first answer, another body is 409', async () => {
    const r = await reseller(100);
    const { client, api_key: clientKey } = await createClient(r.key);
    const { client: second } = await createClient(r.key, { name: 'Second' });
    const fund = (clientId: string, amount_inr: number, key?: string) =>
      api(`/clients/${clientId}/fund`, {
        method: 'POST',
        key: r.key,
        headers: key === undefined ? {} : { 'Idempotency-Key': key },
        body: { amount_inr },
      });

    const idem = `fund-${randomUUID()}`;
    const first = await fund(client.id, 10, idem);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    const replay = await fund(client.id, 10, idem);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.data).toEqual(first.body.data);
    expect(await balance(r.key)).toBe(90);
    expect(await balance(clientKey)).toBe(10);
    expect(await transfers(clientKey)).toHaveLength(1);

    // The same key for another amount or another client names another request.
    for (const conflict of [await fund(client.id, 11, idem), await fund(second.id, 10, idem)]) {
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe('CONFLICT');
    }
    // Without a key, or with a new one, it moves money again.
    expect((await fund(client.id, 10)).status).toBe(200);
    expect((await fund(client.id, 10, `fund-${randomUUID()}`)).status).toBe(200);
    expect(await balance(r.key)).toBe(70);

    // Retries at once with one key: one transfer, every answer the same.
    const raced = `fund-${randomUUID()}`;
    const answers = await Promise.all([1, 2, 3, 4].map(() => fund(client.id, 5, raced)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.data.transfer_id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotency-replayed') === 'true')).toHaveLength(3);
    expect(await balance(r.key)).toBe(65);
    expect(await balance(clientKey)).toBe(35);
    expect(await transfers(clientKey)).toHaveLength(4);

    // A refused funding keeps no key: the same key works once the balance covers it.
    const later = `fund-${randomUUID()}`;
    const short = await fund(client.id, 80, later);
    expect(short.status).toBe(403);
    expect(short.body.error.code).toBe('INSUFFICIENT_BALANCE');
    await adminApi(`/partners/${r.id}`, { method: 'PATCH', body: { balance_inr: 200 } });
    const covered = await fund(client.id, 80, later);
    expect(covered.status).toBe(200);
    expect(covered.headers.get('idempotency-replayed')).toBeNull();
    expect(await balance(r.key)).toBe(120);

    const malformed = await fund(client.id, 1, 'has spaces in it');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('VALIDATION_ERROR');
  });

  describe('with the reseller’s account', () => {
    let nc: NatsConnection;
    let prefix: string;

    beforeAll(async () => {
      const env = e2eEnv();
      prefix = env.natsPrefix;
      nc = await connect({ servers: env.natsUrl, name: 'e2e-reseller-suspension' });
    });

    afterAll(async () => {
      await nc?.close();
    });

    /** calls.call.start as a sender with its own view of the client would send it (campaigns dial so). */
    async function startCall(client: Loose, agentId: string): Promise<Loose> {
      const view = (await adminApi(`/partners/${client.id}`)).body.data;
      const msg = await nc.request(
        `${prefix}.calls.call.start`,
        codec.encode({
          partnerId: client.id,
          // The sender still believes the client approved: the calls service decides on its own view.
          partner: {
            id: client.id,
            status: 'approved',
            voiceTier: 'standard',
            concurrencyLimit: view.concurrency_limit,
            balancePaise: Math.round(view.balance_inr * 100),
            pricePerMinutePaise: null,
            version: view.version,
          },
          requestId: randomUUID(),
          data: { agent_id: agentId, to_number: callee('01') },
        }),
        { timeout: 10_000 },
      );
      return codec.decode(msg.data) as Loose;
    }

    it('stops its clients while suspended (keys, console, calls) and restores them on resume', async () => {
      const r = await reseller(500);
      const { client: active, api_key: activeKey } = await createClient(r.key);
      const { client: held, api_key: heldKey } = await createClient(r.key, { name: 'Held by reseller' });
      await api(`/clients/${active.id}/fund`, { method: 'POST', key: r.key, body: { amount_inr: 50 } });
      expect((await api(`/clients/${held.id}/suspend`, { method: 'POST', key: r.key })).status).toBe(200);
      const agent = await api('/agent', {
        method: 'POST',
        key: activeKey,
        body: {
          agent_name: 'Maya',
          prompt: 'You are Maya from Acme Health. You help patients book appointments.',
          voice_id: VOICE_ID,
          agent_type: 'outbound',
          intro_message: 'Hi, this is Maya from Acme Health.',
        },
      });
      expect(agent.status).toBe(200);
      const agentId: string = agent.body.data.id;
      const console = new ConsoleClient();
      const link = await inviteUser(active.id, {
        email: `client-${randomUUID()}@example.com`,
        name: 'Client owner',
        role: 'owner',
      });
      expect((await console.useLink(link, 'correct horse battery staple')).status).toBe(200);
      expect((await console.request('GET', '/v2/agent')).status).toBe(200);

      const suspended = await adminApi(`/partners/${r.id}`, {
        method: 'PATCH',
        body: { status: 'suspended' },
      });
      expect(suspended.status).toBe(200);
      // At once, though the key was cached a moment ago.
      const refused = await api('/agent', { key: activeKey });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'This account is suspended' });
      const consoleRefused = await console.request('GET', '/v2/agent');
      expect(consoleRefused.status).toBe(403);
      expect(consoleRefused.body.error.message).toBe('This account is suspended');
      expect((await api('/agent', { key: heldKey })).status).toBe(403);
      const operatorView = await adminApi(`/partners/${active.id}`);
      expect(operatorView.body.data.status).toBe('suspended');
      // The calls service refuses the client's calls, whatever the sender believes.
      const noCall = await until('the calls service to refuse the client', async () => {
        const reply = await startCall(active, agentId);
        return reply.ok === false ? reply : undefined;
      });
      expect(noCall.error.code).toBe('FORBIDDEN');
      expect(noCall.error.message).toMatch(/suspended/);

      const resumed = await adminApi(`/partners/${r.id}`, { method: 'PATCH', body: { status: 'approved' } });
      expect(resumed.status).toBe(200);
      expect((await api('/agent', { key: activeKey })).status).toBe(200);
      expect((await console.request('GET', '/v2/agent')).status).toBe(200);
      // The client the reseller suspended itself stays suspended, as its reseller left it.
      expect((await api('/agent', { key: heldKey })).status).toBe(403);
      const listed = await api('/clients', { key: r.key });
      const byId = new Map((listed.body.data.clients as Loose[]).map((c) => [c.id, c]));
      expect(byId.get(active.id)).toMatchObject({ status: 'approved', suspended_by: null });
      expect(byId.get(held.id)).toMatchObject({ status: 'suspended', suspended_by: 'reseller' });
      const call = await until('the calls service to take the client’s call again', async () => {
        const reply = await startCall(active, agentId);
        return reply.ok === true ? reply : undefined;
      });
      expect(call.ok).toBe(true);
    });

    it('keeps a client the operator suspended while its reseller was suspended', async () => {
      const r = await reseller();
      const { client, api_key: clientKey } = await createClient(r.key);
      await adminApi(`/partners/${r.id}`, { method: 'PATCH', body: { status: 'suspended' } });
      const held = await adminApi(`/partners/${client.id}`);
      expect(held.body.data.status).toBe('suspended');
      // The operator's own suspension of the client outlasts the reseller's.
      await adminApi(`/partners/${client.id}`, { method: 'PATCH', body: { status: 'suspended' } });
      await adminApi(`/partners/${r.id}`, { method: 'PATCH', body: { status: 'approved' } });
      expect((await api('/agent', { key: clientKey })).status).toBe(403);
      const shown = await api(`/clients/${client.id}`, { key: r.key });
      expect(shown.body.data).toMatchObject({ status: 'suspended', suspended_by: 'operator' });
    });
  });
});

// The run's own gateway lifts the rate limits: a gateway replica of the run with the contract's (the account
// limit under /calls at its default, 50 a minute).
describe('reseller clients: one concurrency pool with the reseller', () => {
  /** An agent of the client that keeps its sandbox call live: the callee talks, the agent listens. */
  async function clientAgent(key: string): Promise<string> {
    const res = await api('/agent', {
      method: 'POST',
      key,
      body: {
        agent_name: `Listener ${randomUUID().slice(0, 8)}`,
        prompt: 'You are Maya. You listen patiently.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
        intro_message: 'Hi, this is Maya.',
        // Long calls (60 s of media time) keep their slots while the other starts arrive.
        max_call_duration_secs: 60,
      },
    });
    expect(res.status).toBe(200);
    return res.body.data.id;
  }

  const start = (key: string, agentId: string) =>
    api('/calls/start', { method: 'POST', key, body: { agent_id: agentId, to_number: callee('07') } });

  it("bounds the live calls of all of a reseller's clients together by the reseller's own limit", async () => {
    const { partner, apiKey } = await createPartner({ balance_inr: 1000, concurrency_limit: 2 });
    expect(
      (await adminApi(`/partners/${partner.id}`, { method: 'PATCH', body: { reseller: true } })).status,
    ).toBe(200);
    // Each client may run two calls on its own: together they may run two, not four.
    const a = await createClient(apiKey, { name: 'Clinic A', concurrency_limit: 2 });
    const b = await createClient(apiKey, { name: 'Clinic B', concurrency_limit: 2 });
    for (const c of [a, b])
      expect(
        (
          await api(`/clients/${c.client.id}/fund`, {
            method: 'POST',
            key: apiKey,
            body: { amount_inr: 100 },
          })
        ).status,
      ).toBe(200);
    const agentA = await clientAgent(a.api_key);
    const agentB = await clientAgent(b.api_key);

    const first = await start(a.api_key, agentA);
    const second = await start(b.api_key, agentB);
    expect([first.status, second.status]).toEqual([200, 200]);
    const refused = await start(b.api_key, agentB);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('LIMIT_REACHED');
    expect(refused.body.error.message).toMatch(/^Reseller concurrency limit reached: 2 of 2 calls/);
    // Client A is under its own limit of two, yet the pool is full.
    expect((await start(a.api_key, agentA)).status).toBe(429);

    // As the calls end, the pool frees: the next start is admitted.
    const retried = await until(
      'a free slot in the reseller pool',
      async () => {
        const res = await start(b.api_key, agentB);
        return res.status === 200 ? res : undefined;
      },
      90_000,
    );
    expect(retried.body.data.call_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('reseller clients: rate limits on behalf of clients', () => {
  let platform: Platform;
  let limited: string;

  beforeAll(async () => {
    platform = await startRunGateways(1, {
      RATE_LIMIT_ADDRESS_ADMIN_PER_MINUTE: '100000',
      RATE_LIMIT_ADDRESS_INVALID_KEY_PER_MINUTE: '100000',
    });
    limited = platform.gateways[0].url;
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it("counts requests on behalf of clients in the reseller's own account window: more keys and clients are not more requests", async () => {
    const r = await reseller();
    const clients = [await createClient(r.key), await createClient(r.key)];
    // Six keys of the reseller (10 a minute each under /calls) for two clients (50 a minute each): without the
    // reseller's window all 60 would pass; the reseller's account limit under /calls (50) bounds them.
    const keys = [r.key];
    for (let i = 0; i < 5; i++) {
      const issued = await adminApi(`/partners/${r.id}/api-keys`, { method: 'POST', body: {} });
      expect(issued.status).toBe(200);
      keys.push(issued.body.data.api_key);
    }
    const answers: Loose[] = [];
    for (let i = 0; i < 60; i++) {
      answers.push(
        await api('/calls?limit=1', {
          baseUrl: limited,
          key: keys[i % keys.length],
          headers: { 'X-On-Behalf-Of': clients[i % clients.length].client.id },
        }),
      );
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(50).fill(200), ...Array(10).fill(429)]);
    expect(answers[59].body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/50 requests per minute for the reseller's account on \/calls/),
    });
    expect(answers[59].headers.get('x-ratelimit-limit')).toBe('50');
    // The reseller's own requests share the window; a client's own key has its own.
    expect((await api('/calls?limit=1', { key: r.key, baseUrl: limited })).status).toBe(429);
    expect((await api('/calls?limit=1', { key: clients[0].api_key, baseUrl: limited })).status).toBe(200);
  });
});
