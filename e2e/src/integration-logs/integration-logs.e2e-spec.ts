import { api, createPartner } from '../../support';
import { DecisionServer, startDecisionServer } from '../../support/decision-server';
import {
  createAgent,
  createWebLink,
  link,
  PageServer,
  settledLink,
  startPageServer,
} from '../documents/kb-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const SECRET = 'integration-log-secret-0123456789';
const MASKED = '********';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lists until `count` entries match the query (events reach the log through the outbox), or fails. */
async function waitForEntries(key: string, queryString: string, count: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(`/integration-logs?${queryString}`, { key });
    expect(res.status).toBe(200);
    const items: Any[] = res.body.data.integration_logs;
    if (items.length >= count) return items;
    if (Date.now() > deadline)
      throw new Error(
        `only ${items.length} of ${count} entries for ${queryString}: ${JSON.stringify(res.body)}`,
      );
    await sleep(300);
  }
}

/** Every entry of a query, following next_cursor page by page. */
async function walk(key: string, queryString: string): Promise<Any[]> {
  const items: Any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res: Any = await api(
      `/integration-logs?${queryString}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    expect(res.status).toBe(200);
    items.push(...res.body.data.integration_logs);
    cursor = res.body.data.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('next_cursor never ended');
}

describe('integration logs', () => {
  let decision: DecisionServer;
  let pages: PageServer;
  let key: string;
  let otherKey: string;
  let agentId: string;
  let policyId: string;
  const NUMBER = '+14155550410';

  const simulate = () =>
    api('/sandbox/inbound-calls', {
      method: 'POST',
      key,
      body: { to_number: NUMBER, from_number: '+919800000041' },
    });

  beforeAll(async () => {
    decision = await startDecisionServer();
    pages = await startPageServer({
      '/faq': [200, 'text/plain', 'Opening hours: nine to five, Monday to Friday.'],
      '/gone': [404, 'text/plain', 'no such page'],
    });
    ({ apiKey: key } = await createPartner({ name: 'Integration Log Co' }));
    ({ apiKey: otherKey } = await createPartner({ name: 'Integration Log Other Co' }));
    agentId = (await createAgent(key)).id;
    const creds = await api('/config/telephony/carrier_b', {
      method: 'PUT',
      key,
      body: {
        account_sid: 'ACintlog0000000000000000000000001',
        auth_token: 'intlog-token-0000000',
        from_number: '+14155550499',
      },
    });
    expect(creds.status).toBe(200);
    const imported = await api('/phone-numbers', {
      method: 'POST',
      key,
      body: { number: NUMBER, provider: 'carrier_b', agent_id: agentId },
    });
    expect(imported.status).toBe(200);
    const policy = await api('/inbound-route-policies', {
      method: 'POST',
      key,
      body: {
        scope: 'PHONE_NUMBER',
        phone_number_id: imported.body.data.id,
        webhook_url: `${decision.url}/route`,
        webhook_secret: SECRET,
        timeout_ms: 3000,
        failure_action: 'REJECT',
        allowed_actions: ['TRANSFER', 'REJECT'],
      },
    });
    expect(policy.status).toBe(200);
    policyId = policy.body.data.id;
  });

  afterAll(async () => {
    await decision?.close();
    await pages?.close();
  });

  describe('inbound decision requests', () => {
    let decided: Any[];

    beforeAll(async () => {
      // One answered (a little late, to measure), one failing with a 503.
      decision.answerWith({ body: { action: 'REJECT' }, delayMs: 250 });
      const first = await simulate();
      expect(first.status).toBe(200);
      decision.answerWith({ status: 503, body: { error: 'maintenance' } });
      const second = await simulate();
      expect(second.status).toBe(200);
      decided = [first.body.data, second.body.data];
      expect(decision.requests).toHaveLength(2);
    });

    it('logs each request with its status, latency and outcome, newest first', async () => {
      const items = await waitForEntries(key, 'kind=inbound_decision', 2);
      expect(items).toHaveLength(2);
      const [failed, answered] = items;
      expect(answered).toEqual({
        id: expect.stringMatching(/^ilog_[0-9a-f-]{36}$/),
        kind: 'inbound_decision',
        method: 'POST',
        url: `${decision.url}/route`,
        status: 200,
        outcome: 'success',
        error: null,
        latency_ms: expect.any(Number),
        attempts: 1,
        call_id: null,
        browser_session_id: null,
        agent_id: agentId,
        function_id: null,
        hook_id: null,
        started_at: expect.any(String),
      });
      // The log and the decision measured the same exchange.
      expect(answered.latency_ms).toBe(decided[0].webhook_latency_ms);
      expect(answered.latency_ms).toBeGreaterThanOrEqual(250);
      expect(answered.latency_ms).toBeLessThan(3000);
      expect(answered).not.toHaveProperty('request_headers');
      expect(answered).not.toHaveProperty('response_body');
      expect(failed).toMatchObject({
        status: 503,
        outcome: 'http_error',
        error: decided[1].failure_reason,
        latency_ms: decided[1].webhook_latency_ms,
      });
      expect(failed.error).toContain('503');
      expect(Date.parse(failed.started_at)).toBeGreaterThanOrEqual(Date.parse(answered.started_at));
    });

    it('shows what was sent and answered, with the signature masked', async () => {
      const [failed, answered] = await waitForEntries(key, 'kind=inbound_decision', 2);
      const res = await api(`/integration-logs/${answered.id}`, { key });
      expect(res.status).toBe(200);
      const sent = decision.requests[0];
      expect(res.body.data).toEqual({
        ...answered,
        request_headers: {
          'content-type': 'application/json',
          'x-vap-event': 'inbound.route',
          'x-vap-timestamp': sent.headers['x-vap-timestamp'],
          'x-vap-signature': MASKED,
        },
        request_body: sent.rawBody,
        response_body: JSON.stringify({ action: 'REJECT' }),
      });
      // Neither the signature the partner received nor the secret appear anywhere.
      const signature = String(sent.headers['x-vap-signature']);
      expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
      expect(JSON.stringify(res.body)).not.toContain(signature);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      const other = await api(`/integration-logs/${failed.id}`, { key });
      expect(other.body.data).toMatchObject({
        response_body: JSON.stringify({ error: 'maintenance' }),
        request_body: decision.requests[1].rawBody,
      });
    });
  });

  describe('knowledge-base page fetches', () => {
    it('logs the fetch of a web link’s page for the agent, and a failed one too', async () => {
      const faq = await createWebLink(key, `${pages.url}/faq`);
      const gone = await createWebLink(key, `${pages.url}/gone`);
      await link(key, agentId, faq.id);
      await link(key, agentId, gone.id);
      expect((await settledLink(key, agentId, faq.id)).index_status).toBe('indexed');
      expect((await settledLink(key, agentId, gone.id)).index_status).toBe('failed');

      const items = await waitForEntries(key, `kind=knowledge_fetch&agent_id=${agentId}`, 2);
      const fetched = items.find((i: Any) => i.url === `${pages.url}/faq`);
      const failed = items.find((i: Any) => i.url === `${pages.url}/gone`);
      expect(fetched).toMatchObject({
        kind: 'knowledge_fetch',
        method: 'GET',
        status: 200,
        outcome: 'success',
        error: null,
        agent_id: agentId,
        call_id: null,
        attempts: 1,
      });
      expect(failed).toMatchObject({
        status: 404,
        outcome: 'http_error',
        error: 'the page answered HTTP 404',
      });
      const detail = await api(`/integration-logs/${fetched.id}`, { key });
      expect(detail.status).toBe(200);
      expect(detail.body.data).toMatchObject({
        request_body: null,
        response_body: 'Opening hours: nine to five, Monday to Friday.',
        request_headers: { 'user-agent': expect.any(String), accept: expect.any(String) },
      });
    });
  });

  describe('reading the log', () => {
    it('filters by kind, outcome, agent and time, and pages with the cursor', async () => {
      const all = await walk(key, 'limit=100');
      expect(all.length).toBeGreaterThanOrEqual(4);
      const paged = await walk(key, 'limit=1');
      expect(paged.map((i) => i.id)).toEqual(all.map((i) => i.id));
      const times = all.map((i) => Date.parse(i.started_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);

      const failures = await walk(key, 'outcome=http_error&limit=1');
      expect(failures.length).toBeGreaterThanOrEqual(2);
      expect(failures.every((i) => i.outcome === 'http_error')).toBe(true);
      const decisions = await walk(key, 'kind=inbound_decision&outcome=success');
      expect(decisions.map((i) => i.kind)).toEqual(['inbound_decision']);
      expect(await walk(key, `agent_id=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).toEqual([]);

      const oldest = all[all.length - 1];
      const after = await walk(key, `created_after=${encodeURIComponent(oldest.started_at)}`);
      expect(after.map((i) => i.id)).toContain(oldest.id);
      const before = await walk(key, `created_before=${encodeURIComponent(oldest.started_at)}`);
      expect(before.map((i) => i.id)).not.toContain(oldest.id);
      expect(await walk(key, `created_after=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    });

    it('never shows another account’s entries: not listed, 404 by id', async () => {
      const mine = await walk(key, 'limit=100');
      const theirs = await walk(otherKey, 'limit=100');
      expect(theirs).toEqual([]);
      for (const entry of mine.slice(0, 2)) {
        const res = await api(`/integration-logs/${entry.id}`, { key: otherKey });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    });

    it.each([
      ['an unknown id', 'ilog_00000000-0000-4000-8000-000000000000'],
      ['a bare UUID', '00000000-0000-4000-8000-000000000000'],
      ['a malformed id', 'ilog_nope'],
    ])('answers 404 for %s', async (_label, id) => {
      const res = await api(`/integration-logs/${id}`, { key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    });

    it.each([
      'kind=webhook',
      'outcome=fine',
      'call_id=123',
      'browser_session_id=abc',
      'agent_id=ilog_1',
      'function_id=has%20space',
      'created_after=yesterday',
      'created_before=2026-13-01T00:00:00Z',
      'limit=0',
      'limit=101',
      'cursor=not-a-cursor',
      'cursor=eyJ0IjoiMjAyNi0xMS0yMFQxMDowMDowMFoiLCJpZCI6IngifQ',
      'unknown=1',
    ])('refuses %s with 400 VALIDATION_ERROR', async (queryString) => {
      const res = await api(`/integration-logs?${queryString}`, { key });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  // After the reads above, which count this account's entries: each way a decision request can end.
  describe('inbound decision requests that fail', () => {
    const setPolicy = async (body: Record<string, unknown>) =>
      expect((await api(`/inbound-route-policies/${policyId}`, { method: 'PATCH', key, body })).status).toBe(
        200,
      );

    /** Routes one sandbox call and returns its decision and the newest inbound_decision entry, in full. */
    async function routeOnce(): Promise<{ decided: Any; entry: Any }> {
      const before = (await walk(key, 'kind=inbound_decision&limit=100')).length;
      const res = await simulate();
      expect(res.status).toBe(200);
      const [newest] = await waitForEntries(key, 'kind=inbound_decision&limit=100', before + 1);
      const detail = await api(`/integration-logs/${newest.id}`, { key });
      expect(detail.status).toBe(200);
      return { decided: res.body.data, entry: detail.body.data };
    }

    it('logs an answer outside the contract as a success whose answer was not used', async () => {
      decision.answerWith({ body: { action: 'TRANSFER' } });
      const { decided, entry } = await routeOnce();
      expect(decided).toMatchObject({ action: 'REJECT', source: 'failure_action' });
      expect(entry).toMatchObject({
        status: 200,
        outcome: 'success',
        error: decided.failure_reason,
        response_body: JSON.stringify({ action: 'TRANSFER' }),
      });
      expect(entry.error).toContain('to_number');
    });

    it('logs a request that got no answer in time as a timeout', async () => {
      await setPolicy({ timeout_ms: 500 });
      decision.answerWith({ body: { action: 'REJECT' }, delayMs: 1500 });
      const { decided, entry } = await routeOnce();
      expect(entry).toMatchObject({
        status: null,
        outcome: 'timeout',
        response_body: null,
        error: decided.failure_reason,
        request_headers: { 'x-vap-signature': MASKED },
      });
      expect(entry.latency_ms).toBeGreaterThanOrEqual(450);
      expect(entry.latency_ms).toBeLessThan(1500);
      const timeouts = await walk(key, 'outcome=timeout');
      expect(timeouts.map((i) => i.id)).toEqual([entry.id]);
    });

    it('logs a request that could not connect as refused, without a signature when the policy has no secret', async () => {
      // Nothing listens on port 1.
      await setPolicy({ timeout_ms: 3000, webhook_url: 'https://127.0.0.1:1/route', webhook_secret: null });
      const { decided, entry } = await routeOnce();
      expect(entry).toMatchObject({
        url: 'https://127.0.0.1:1/route',
        status: null,
        outcome: 'refused',
        response_body: null,
        error: decided.failure_reason,
      });
      expect(entry.request_headers).not.toHaveProperty('x-vap-signature');
      expect(entry.request_headers).toHaveProperty('x-vap-timestamp');
    });
  });
});
