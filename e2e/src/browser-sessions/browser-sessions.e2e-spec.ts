// One journey through the gateway (create for one of the account's customers, then read it back) and the
// request validation. What the calls service decides (admission, limits, listing, who finds a session) is its
// browser-session use cases' integration specs; the gateway's own check that a customer is the account's stays here.
import { verifyStreamToken } from '@vap/media';
import { mediaStreamTokenKey, parseSecretsKey } from '@vap/secrets';
import { api, e2eEnv } from '../../support';
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

  const create = (body: Record<string, unknown>) =>
    api('/browser-sessions', { method: 'POST', key: partner.generalKey, body });

  it("creates a pending session for a customer of the account with a one-time token and a connect_url on MEDIA_PUBLIC_URL, and reads it back without them; another account's agent or customer is not found", async () => {
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

    const other = await CallsPartner.create();
    const theirAgent = await other.createAgent();
    for (const agent_id of [theirAgent.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await create({ agent_id, allowed_origins: [ORIGIN] });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('NOT_FOUND');
    }
    // A customer_id must be one of the account's customers (the gateway checks it).
    const theirCustomer = await api('/customers', {
      method: 'POST',
      key: other.generalKey,
      body: { external_id: `bs-${Date.now()}`, name: 'Other' },
    });
    for (const customer_id of [theirCustomer.body.data.id, 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11']) {
      const refused = await create({ agent_id: agent.id, allowed_origins: [ORIGIN], customer_id });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('NOT_FOUND');
    }
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
});
