// Webhook endpoints through the gateway: every rule of the contract's "Webhook endpoint" and its routes,
// the legacy PUT /config/webhook, secrets shown once and sealed at rest, and tenancy.
import { Client } from 'pg';
import { api, e2eEnv } from '../../support';
import { createAgent, createEndpoint, label, newPartner, UUID } from './webhook-fixtures';

const EVENT_TYPES = [
  'call.status.updated',
  'session.completed',
  'call.transferred',
  'campaign.status.updated',
  'message.status.updated',
  'message.received',
  'customer_connection.updated',
  'inbound.route',
  'webhook.test',
];
const URL = 'https://example.com/hooks';

describe('webhook endpoints', () => {
  let key: string;

  // A partner per test: each test creates endpoints, and an account holds five per scope.
  beforeEach(async () => {
    ({ key } = await newPartner());
  });

  const post = (body: unknown, k = key) => api('/config/webhooks', { key: k, body });
  const patch = (id: string, body: unknown, k = key) =>
    api(`/config/webhooks/${id}`, { method: 'PATCH', key: k, body });
  const list = async (k = key) =>
    (await api('/config/webhooks', { key: k })).body.data.endpoints as { id: string }[];

  describe('POST /config/webhooks', () => {
    it('creates an account-wide endpoint and shows its secret once', async () => {
      const name = label();
      const res = await post({ label: name, url: URL, events: ['session.completed'] });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const e = res.body.data;
      expect(e).toMatchObject({
        id: expect.stringMatching(UUID),
        label: name,
        url: URL,
        enabled: true,
        agent_id: null,
        events: ['session.completed'],
        last_delivery_at: null,
        last_delivery_status: null,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{40,}$/),
        message: expect.any(String),
      });
      expect(Date.parse(e.created_at)).not.toBeNaN();
      const listed = (await list()).find((x) => x.id === e.id);
      expect(listed).toBeDefined();
      expect(listed).not.toHaveProperty('secret');
      expect(JSON.stringify(await list())).not.toContain(e.secret);
    });

    it('takes omitted or empty events as every type', async () => {
      expect((await createEndpoint(key, { url: URL })).events).toEqual([]);
      expect((await createEndpoint(key, { url: URL, events: [] })).events).toEqual([]);
    });

    it.each([
      ['uppercase', 'Hooks'],
      ['a leading hyphen', '-hooks'],
      ['an underscore', 'my_hooks'],
      ['a space', 'my hooks'],
      ['32 characters', 'a'.repeat(32)],
      ['the empty string', ''],
      ['a number', 42],
    ])('refuses a label with %s', async (_what, value) => {
      const res = await post({ label: value, url: URL });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain('label');
    });

    it('accepts 31 characters, a leading digit and hyphens', async () => {
      const name = `9${'a'.repeat(22)}-${Math.random().toString(36).slice(2, 9).padEnd(7, 'x')}`;
      expect(name).toHaveLength(31);
      expect((await post({ label: name, url: URL })).status).toBe(200);
    });

    it('keeps `default` for the legacy route', async () => {
      const res = await post({ label: 'default', url: URL });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain('reserved');
    });

    it.each([
      ['http://example.com/hooks'],
      ['ftp://example.com/hooks'],
      ['not a url'],
      ['https://user:pw@example.com/'],
    ])('refuses the url %s', async (url) => {
      const res = await post({ label: label(), url });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain('url');
    });

    it.each([['call.started'], ['session.failed'], ['CALL.STATUS.UPDATED']])(
      'refuses the event %s with a message that lists the valid set',
      async (name) => {
        const res = await post({ label: label(), url: URL, events: ['call.status.updated', name] });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        for (const type of EVENT_TYPES) expect(res.body.error.message).toContain(type);
      },
    );

    it('accepts every catalog type in an allowlist', async () => {
      expect((await createEndpoint(key, { url: URL, events: EVENT_TYPES })).events).toEqual(EVENT_TYPES);
    });

    it('makes labels unique on the account across scopes, not across accounts', async () => {
      const agent = await createAgent(key);
      const name = label();
      await createEndpoint(key, { label: name, url: URL });
      const again = await post({ label: name, url: URL });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('LABEL_TAKEN');
      const onAgent = await api(`/agent/${agent.id}/webhooks`, { key, body: { label: name, url: URL } });
      expect(onAgent.status).toBe(409);
      expect(onAgent.body.error.code).toBe('LABEL_TAKEN');
      const other = await newPartner();
      expect((await post({ label: name, url: URL }, other.key)).status).toBe(200);
    });

    it('binds an endpoint to an agent of the account, and 404s for anyone else’s or unknown agents', async () => {
      const agent = await createAgent(key);
      const bound = await createEndpoint(key, { url: URL, agent_id: agent.id });
      expect(bound.agent_id).toBe(agent.id);
      const other = await newPartner();
      const foreign = await createAgent(other.key);
      const res = await post({ label: label(), url: URL, agent_id: foreign.id });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(
        (await post({ label: label(), url: URL, agent_id: '00000000-0000-4000-8000-000000000000' })).status,
      ).toBe(404);
    });
  });

  describe('five endpoints per scope', () => {
    it('counts account-wide and each agent separately', async () => {
      const partner = await newPartner();
      const agent = await createAgent(partner.key);
      for (let n = 0; n < 5; n++) await createEndpoint(partner.key, { url: URL });
      const sixth = await post({ label: label(), url: URL }, partner.key);
      expect(sixth.status).toBe(429);
      expect(sixth.body.error.code).toBe('LIMIT_REACHED');
      // The agent's scope is its own.
      for (let n = 0; n < 5; n++) await createEndpoint(partner.key, { url: URL }, agent.id);
      const agentSixth = await api(`/agent/${agent.id}/webhooks`, {
        key: partner.key,
        body: { label: label(), url: URL },
      });
      expect(agentSixth.status).toBe(429);
      // Deleting one makes room again.
      const [first] = await list(partner.key);
      expect((await api(`/config/webhooks/${first.id}`, { method: 'DELETE', key: partner.key })).status).toBe(
        200,
      );
      expect((await post({ label: label(), url: URL }, partner.key)).status).toBe(200);
    });
  });

  describe('PATCH /config/webhooks/{id}', () => {
    it('updates label, url, enabled and events', async () => {
      const e = await createEndpoint(key, { url: URL });
      const name = label('renamed');
      const res = await patch(e.id, {
        label: name,
        url: 'https://example.org/other',
        enabled: false,
        events: ['call.transferred'],
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: e.id,
        label: name,
        url: 'https://example.org/other',
        enabled: false,
        events: ['call.transferred'],
      });
      expect(res.body.data).not.toHaveProperty('secret');
    });

    it.each([
      ['the same agent_id', 'same'],
      ['null', null],
      ['another uuid', '00000000-0000-4000-8000-000000000000'],
    ])('refuses agent_id (%s) with 400', async (_what, value) => {
      const agent = await createAgent(key);
      const e = await createEndpoint(key, { url: URL }, agent.id);
      const res = await patch(e.id, { agent_id: value === 'same' ? agent.id : value, enabled: false });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain('agent_id');
      // Nothing else changed either.
      const own = (await api(`/agent/${agent.id}/webhooks`, { key })).body.data.endpoints;
      expect(own[0]).toMatchObject({ id: e.id, enabled: true, agent_id: agent.id });
    });

    it('applies the label, url and events rules', async () => {
      const e = await createEndpoint(key, { url: URL });
      const taken = await createEndpoint(key, { url: URL });
      expect((await patch(e.id, { label: 'default' })).status).toBe(400);
      expect((await patch(e.id, { url: 'http://example.com' })).status).toBe(400);
      expect((await patch(e.id, { events: ['session.failed'] })).status).toBe(400);
      const clash = await patch(e.id, { label: taken.label });
      expect(clash.status).toBe(409);
      expect(clash.body.error.code).toBe('LABEL_TAKEN');
    });
  });

  describe('rotate-secret and secrets at rest', () => {
    it('issues a new secret once and stores only ciphertext', async () => {
      const e = await createEndpoint(key, { url: URL });
      const res = await api(`/config/webhooks/${e.id}/rotate-secret`, { method: 'POST', key });
      expect(res.status).toBe(200);
      expect(res.body.data.secret).toMatch(/^whsec_/);
      expect(res.body.data.secret).not.toBe(e.secret);
      expect(res.body.data.id).toBe(e.id);
      const db = new Client({ connectionString: e2eEnv().databaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query(`SELECT * FROM webhooks.endpoints WHERE id = $1`, [e.id]);
        const stored = JSON.stringify(rows[0]);
        expect(stored).not.toContain(e.secret);
        expect(stored).not.toContain(res.body.data.secret);
        expect(stored).not.toContain('whsec_');
      } finally {
        await db.end();
      }
    });
  });

  describe('agent routes', () => {
    it('creates on the agent in the path whatever agent_id the body names, and lists only its own', async () => {
      const agent = await createAgent(key);
      const other = await createAgent(key);
      const res = await api(`/agent/${agent.id}/webhooks`, {
        key,
        body: { label: label(), url: URL, agent_id: other.id },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.agent_id).toBe(agent.id);
      expect(res.body.data.secret).toMatch(/^whsec_/);
      await createEndpoint(key, { url: URL }, other.id);
      await createEndpoint(key, { url: URL });
      const got = await api(`/agent/${agent.id}/webhooks`, { key });
      expect(got.status).toBe(200);
      expect(got.body.data.endpoints.map((e: { id: string }) => e.id)).toEqual([res.body.data.id]);
      expect(got.body.data.endpoints[0]).not.toHaveProperty('secret');
      expect(got.body.data.include_account_endpoints).toBe(true);
      expect(got.body.data.available_events).toEqual(EVENT_TYPES);
    });

    it('404s for a deleted agent, while its endpoints can still be deleted', async () => {
      const agent = await createAgent(key);
      const e = await createEndpoint(key, { url: URL }, agent.id);
      expect((await api(`/agent/${agent.id}`, { method: 'DELETE', key })).status).toBe(200);
      for (const res of [
        await api(`/agent/${agent.id}/webhooks`, { key }),
        await api(`/agent/${agent.id}/webhooks`, {
          method: 'PATCH',
          key,
          body: { include_account_endpoints: true },
        }),
        await api(`/agent/${agent.id}/webhooks`, { key, body: { label: label(), url: URL } }),
        await post({ label: label(), url: URL, agent_id: agent.id }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
      expect((await list()).map((x) => x.id)).toContain(e.id);
      const del = await api(`/config/webhooks/${e.id}`, { method: 'DELETE', key });
      expect(del.status).toBe(200);
      expect((await list()).map((x) => x.id)).not.toContain(e.id);
    });

    it('404s for a malformed agent id', async () => {
      expect((await api('/agent/not-an-id/webhooks', { key })).status).toBe(404);
    });
  });

  describe('legacy PUT /config/webhook', () => {
    it('creates, then replaces the default endpoint with a new secret each call', async () => {
      const partner = await newPartner();
      const first = await api('/config/webhook', {
        method: 'PUT',
        key: partner.key,
        body: { webhook_url: URL },
      });
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({
        webhook_url: URL,
        webhook_secret: expect.stringMatching(/^whsec_/),
        message: expect.any(String),
      });
      const second = await api('/config/webhook', {
        method: 'PUT',
        key: partner.key,
        body: { webhook_url: 'https://example.org/v2' },
      });
      expect(second.status).toBe(200);
      expect(second.body.data.webhook_secret).not.toBe(first.body.data.webhook_secret);
      const endpoints = (await api('/config/webhooks', { key: partner.key })).body.data.endpoints;
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]).toMatchObject({
        label: 'default',
        url: 'https://example.org/v2',
        agent_id: null,
        enabled: true,
      });
    });

    it('refuses a non-HTTPS or missing webhook_url', async () => {
      for (const body of [{ webhook_url: 'http://example.com' }, {}]) {
        const res = await api('/config/webhook', { method: 'PUT', key, body });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
    });
  });

  describe('tenancy', () => {
    it('answers 404 for another account’s endpoint on every route', async () => {
      const e = await createEndpoint(key, { url: URL });
      const other = await newPartner();
      const routes: [string, string, unknown?][] = [
        ['PATCH', `/config/webhooks/${e.id}`, { enabled: false }],
        ['DELETE', `/config/webhooks/${e.id}`],
        ['POST', `/config/webhooks/${e.id}/rotate-secret`],
        ['POST', `/config/webhooks/${e.id}/test`],
        ['GET', `/config/webhooks/${e.id}/deliveries`],
      ];
      for (const [method, path, body] of routes) {
        const res = await api(path, { method, key: other.key, body });
        expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
          path,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
      expect((await list(other.key)).map((x) => x.id)).not.toContain(e.id);
      expect((await list()).map((x) => x.id)).toContain(e.id);
    });

    it('answers 404 for another account’s agent', async () => {
      const other = await newPartner();
      const agent = await createAgent(other.key);
      expect((await api(`/agent/${agent.id}/webhooks`, { key })).status).toBe(404);
      expect(
        (await api(`/agent/${agent.id}/webhooks`, { key, body: { label: label(), url: URL } })).status,
      ).toBe(404);
    });
  });
});
