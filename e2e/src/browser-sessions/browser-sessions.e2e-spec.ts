import { verifyStreamToken } from '@vap/media';
import { mediaStreamTokenKey, parseSecretsKey } from '@vap/secrets';
import { adminApi, api, e2eEnv } from '../../support';
import { CallsPartner, UUID } from '../calls/call-fixtures';

const ORIGIN = 'https://app.example.test';

/** MEDIA_PUBLIC_URL of the run as a browser opens it: ws(s), no trailing slash. */
function mediaWsBase(): string {
  const url = new URL(process.env.E2E_MEDIA_PUBLIC_URL!);
  const scheme = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  return `${scheme}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

describe('browser sessions (POST/GET /browser-sessions)', () => {
  let partner: CallsPartner;
  let agent: { id: string };

  beforeAll(async () => {
    partner = await CallsPartner.create();
    agent = await partner.createAgent();
  });

  const create = (body: Record<string, unknown>, key = partner.generalKey) =>
    api('/browser-sessions', { method: 'POST', key, body });

  it('creates a pending session with a one-time token and a connect_url on MEDIA_PUBLIC_URL', async () => {
    const customer = await api('/customers', {
      method: 'POST',
      key: partner.generalKey,
      body: { external_id: `bs-${Date.now()}-${Math.random()}`, name: 'Asha' },
    });
    expect(customer.status).toBe(200);
    const customerId = customer.body.data.id as string;
    const res = await create({
      agent_id: agent.id,
      allowed_origins: [ORIGIN, 'http://localhost:5173'],
      variables: { customer_name: 'Asha' },
      metadata: { ticket: 'T-1' },
      customer_id: customerId,
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      id: expect.stringMatching(UUID),
      agent_id: agent.id,
      status: 'pending',
      end_reason: null,
      started_at: null,
      ended_at: null,
      allowed_origins: [ORIGIN, 'http://localhost:5173'],
      variables: { customer_name: 'Asha' },
      metadata: { ticket: 'T-1' },
      customer_id: customerId,
      credits_used: 0,
      access_token: expect.any(String),
    });
    // expires_at: the token's 60 s.
    const ttl = Date.parse(data.expires_at) - Date.parse(data.created_at);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThan(65_000);
    expect(data.connect_url).toBe(
      `${mediaWsBase()}/browser/${data.id}?token=${encodeURIComponent(data.access_token)}`,
    );
    // A stream token the voice service verifies with the key calls signs carrier streams with, bound to the session.
    const verified = verifyStreamToken(
      data.access_token,
      mediaStreamTokenKey(parseSecretsKey(e2eEnv().secretsKey)),
      Date.now(),
    );
    expect(verified).toMatchObject({ ok: true, claims: { callId: data.id } });

    // Shown once: GET answers carry no token.
    const one = await api(`/browser-sessions/${data.id}`, { key: partner.generalKey });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: data.id, status: 'pending', metadata: { ticket: 'T-1' } });
    expect(one.body.data).not.toHaveProperty('access_token');
    expect(one.body.data).not.toHaveProperty('connect_url');
    expect(one.body.data.session).toMatchObject({ session_id: expect.stringMatching(UUID) });
    const list = await api(`/browser-sessions?agent_id=${agent.id}`, { key: partner.generalKey });
    expect(list.status).toBe(200);
    expect(list.body.data.browser_sessions.map((s: { id: string }) => s.id)).toContain(data.id);
    for (const s of list.body.data.browser_sessions) expect(s).not.toHaveProperty('access_token');
    // Not a call: GET /calls neither lists it nor finds it.
    const calls = await partner.calls('');
    expect(calls.body.data.calls.map((c: { call_id: string }) => c.call_id)).not.toContain(data.id);
    expect((await partner.calls(`/${data.id}`)).status).toBe(404);
  });

  it('refuses a missing agent, bad origins, bad metadata and customer ids (400 VALIDATION_ERROR)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ allowed_origins: [ORIGIN] }, 'agent_id'],
      [{ agent_id: agent.id }, 'allowed_origins'],
      [{ agent_id: agent.id, allowed_origins: [] }, 'allowed_origins'],
      [{ agent_id: agent.id, allowed_origins: ['http://app.example.test'] }, 'allowed_origins'],
      [{ agent_id: agent.id, allowed_origins: ['https://app.example.test/'] }, 'allowed_origins'],
      [{ agent_id: agent.id, allowed_origins: ['https://app.example.test/page'] }, 'allowed_origins'],
      [{ agent_id: agent.id, allowed_origins: ['app.example.test'] }, 'allowed_origins'],
      [{ agent_id: agent.id, allowed_origins: ['HTTPS://APP.EXAMPLE.TEST'] }, 'allowed_origins'],
      [
        {
          agent_id: agent.id,
          allowed_origins: Array.from({ length: 21 }, (_, i) => `https://a${i}.example.test`),
        },
        'allowed_origins',
      ],
      [{ agent_id: agent.id, allowed_origins: [ORIGIN], metadata: 'x' }, 'metadata'],
      [{ agent_id: agent.id, allowed_origins: [ORIGIN], metadata: { big: 'x'.repeat(9000) } }, 'metadata'],
      [{ agent_id: agent.id, allowed_origins: [ORIGIN], variables: [1] }, 'variables'],
      [{ agent_id: agent.id, allowed_origins: [ORIGIN], customer_id: 'acme' }, 'customer_id'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(JSON.stringify(res.body.error)).toContain(field);
    }
  });

  it("answers 404 for an unknown agent, another account's agent and another account's session", async () => {
    const other = await CallsPartner.create();
    const theirAgent = await other.createAgent();
    for (const agent_id of [theirAgent.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await create({ agent_id, allowed_origins: [ORIGIN] });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    // A customer_id must be one of the account's customers.
    const theirCustomer = await api('/customers', {
      method: 'POST',
      key: other.generalKey,
      body: { external_id: `bs-${Date.now()}`, name: 'Other' },
    });
    for (const customer_id of [theirCustomer.body.data.id, 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11']) {
      const res = await create({ agent_id: agent.id, allowed_origins: [ORIGIN], customer_id });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const theirs = await create({ agent_id: theirAgent.id, allowed_origins: [ORIGIN] }, other.generalKey);
    expect(theirs.status).toBe(200);
    const peek = await api(`/browser-sessions/${theirs.body.data.id}`, { key: partner.generalKey });
    expect(peek.status).toBe(404);
    expect(peek.body.error.code).toBe('NOT_FOUND');
    const mine = await api('/browser-sessions', { key: partner.generalKey });
    expect(mine.body.data.browser_sessions.map((s: { id: string }) => s.id)).not.toContain(
      theirs.body.data.id,
    );
    expect((await api('/browser-sessions/not-an-id', { key: partner.generalKey })).status).toBe(404);
  });

  it('lists newest first with cursor pagination and filters', async () => {
    const fresh = await CallsPartner.create();
    const a = await fresh.createAgent();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await create({ agent_id: a.id, allowed_origins: [ORIGIN] }, fresh.generalKey);
      expect(res.status).toBe(200);
      ids.push(res.body.data.id);
    }
    const first = await api('/browser-sessions?limit=2', { key: fresh.generalKey });
    expect(first.status).toBe(200);
    expect(first.body.data.browser_sessions.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    const next = await api(
      `/browser-sessions?limit=2&cursor=${encodeURIComponent(first.body.data.next_cursor)}`,
      {
        key: fresh.generalKey,
      },
    );
    expect(next.body.data.browser_sessions.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    const pending = await api('/browser-sessions?status=pending', { key: fresh.generalKey });
    expect(pending.body.data.browser_sessions).toHaveLength(3);
    const completed = await api('/browser-sessions?status=completed', { key: fresh.generalKey });
    expect(completed.body.data.browser_sessions).toHaveLength(0);
    const bad = await api('/browser-sessions?status=ringing', { key: fresh.generalKey });
    expect(bad.status).toBe(400);
  });

  it('refuses a suspended or unfunded account (403 FORBIDDEN), as a call start is', async () => {
    const broke = await CallsPartner.create({ balance_inr: 0 });
    const brokeAgent = await broke.createAgent();
    const unfunded = await create({ agent_id: brokeAgent.id, allowed_origins: [ORIGIN] }, broke.generalKey);
    expect(unfunded.status).toBe(403);
    expect(unfunded.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/balance/i),
    });

    const later = await CallsPartner.create();
    const laterAgent = await later.createAgent();
    const patched = await adminApi(`/partners/${later.id}`, {
      method: 'PATCH',
      body: { status: 'suspended' },
    });
    expect(patched.status).toBe(200);
    const suspended = await create({ agent_id: laterAgent.id, allowed_origins: [ORIGIN] }, later.generalKey);
    expect(suspended.status).toBe(403);
    expect(suspended.body.error.code).toBe('FORBIDDEN');
  });

  it('counts pending sessions against the concurrency limit, shared with calls (429 LIMIT_REACHED)', async () => {
    const limited = await CallsPartner.create({ concurrency_limit: 2 });
    const a = await limited.createAgent();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        create({ agent_id: a.id, allowed_origins: [ORIGIN] }, limited.generalKey),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(2);
    for (const r of refused) {
      expect(r.body.error).toMatchObject({
        code: 'LIMIT_REACHED',
        message: expect.stringMatching(/concurrency/i),
      });
    }
    // The slots are the calls' slots too.
    const call = await limited.start({ agent_id: a.id, to_number: '+919876500001' });
    expect(call.status).toBe(429);
    expect(call.body.error.code).toBe('LIMIT_REACHED');
  });
});
