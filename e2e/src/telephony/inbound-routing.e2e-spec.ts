import { createHmac, timingSafeEqual } from 'node:crypto';
import { api, createPartner } from '../../support';
import { DecisionServer, startDecisionServer } from '../../support/decision-server';
import { createTestAgent } from './telephony-fixtures';

const SECRET = 'decision-secret-0123456789';

/** Recomputes the documented inbound.route signature, as a partner's receiver would. */
function signatureValid(headers: Record<string, unknown>, rawBody: string, secret: string): boolean {
  const timestamp = String(headers['x-vap-timestamp']);
  const given = Buffer.from(String(headers['x-vap-signature']));
  const expected = Buffer.from(
    `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`,
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('inbound routing', () => {
  let decision: DecisionServer;
  let key: string;
  let partnerId: string;
  let otherKey: string;
  let agentId: string;
  let otherAgentId: string;
  let numberId: string;
  const NUMBER = '+14155550300';
  const SECOND = '+14155550301';

  beforeAll(async () => {
    decision = await startDecisionServer();
    ({
      apiKey: key,
      partner: { id: partnerId },
    } = await createPartner({ name: 'Inbound Co' }));
    ({ apiKey: otherKey } = await createPartner({ name: 'Inbound Other Co' }));
    agentId = (await createTestAgent(key, { agent_type: 'inbound', intro_message: 'Hello from inbound' })).id;
    otherAgentId = (await createTestAgent(key, { agent_type: 'inbound' })).id;
    await api('/config/telephony/carrier_b', {
      method: 'PUT',
      key,
      body: {
        account_sid: 'ACinbound000000000000000000000001',
        auth_token: 'inbound-token-0000000',
        from_number: '+14155550399',
      },
    });
    const imported = await api('/phone-numbers', {
      method: 'POST',
      key,
      body: { number: NUMBER, provider: 'carrier_b', agent_id: agentId },
    });
    expect(imported.status).toBe(200);
    numberId = imported.body.data.id;
    expect(
      (await api('/phone-numbers', { method: 'POST', key, body: { number: SECOND, provider: 'carrier_b' } }))
        .status,
    ).toBe(200);
  });

  afterAll(async () => {
    await decision?.close();
  });

  const createPolicy = (body: unknown, k = key) =>
    api('/inbound-route-policies', { method: 'POST', key: k, body });
  const simulate = (to = NUMBER, k = key) =>
    api('/sandbox/inbound-calls', {
      method: 'POST',
      key: k,
      body: { to_number: to, from_number: '+919800000001' },
    });

  describe('policies', () => {
    it.each([
      ['an unknown scope', { scope: 'GLOBAL', webhook_url: 'https://p.example/r' }, 'scope'],
      ['no webhook_url', { scope: 'PARTNER' }, 'webhook_url'],
      ['a null webhook_url', { scope: 'PARTNER', webhook_url: null }, 'webhook_url'],
      [
        'PHONE_NUMBER without phone_number_id',
        { scope: 'PHONE_NUMBER', webhook_url: 'https://p.example/r' },
        'phone_number_id',
      ],
      ['AGENT without agent_id', { scope: 'AGENT', webhook_url: 'https://p.example/r' }, 'agent_id'],
      ['an http webhook_url', { scope: 'PARTNER', webhook_url: 'http://p.example/r' }, 'webhook_url'],
      [
        'a timeout over 10 s',
        { scope: 'PARTNER', webhook_url: 'https://p.example/r', timeout_ms: 20000 },
        'timeout_ms',
      ],
      [
        'an unknown action',
        { scope: 'PARTNER', webhook_url: 'https://p.example/r', allowed_actions: ['HOLD'] },
        'allowed_actions',
      ],
      [
        'a failure_action of TRANSFER',
        { scope: 'PARTNER', webhook_url: 'https://p.example/r', failure_action: 'TRANSFER' },
        'failure_action',
      ],
      [
        'agent_id on scope PARTNER',
        {
          scope: 'PARTNER',
          webhook_url: 'https://p.example/r',
          agent_id: '00000000-0000-4000-8000-000000000000',
        },
        'agent_id',
      ],
      [
        'a short secret',
        { scope: 'PARTNER', webhook_url: 'https://p.example/r', webhook_secret: 'short' },
        'webhook_secret',
      ],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, body, field) => {
      const res = await createPolicy(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain(field);
    });

    it('answers 404 for another account’s number or an unknown agent', async () => {
      const foreign = await createPolicy(
        { scope: 'PHONE_NUMBER', phone_number_id: numberId, webhook_url: 'https://p.example/r' },
        otherKey,
      );
      expect(foreign.status).toBe(404);
      const agent = await createPolicy({
        scope: 'AGENT',
        agent_id: '00000000-0000-4000-8000-000000000000',
        webhook_url: 'https://p.example/r',
      });
      expect(agent.status).toBe(404);
    });

    it('creates, reads, updates and deletes a policy; the secret is never returned', async () => {
      const created = await createPolicy({
        scope: 'PHONE_NUMBER',
        phone_number_id: numberId,
        name: 'Front desk',
        webhook_url: `${decision.url}/route`,
        webhook_secret: SECRET,
        timeout_ms: 2000,
        failure_action: 'REJECT',
        allowed_actions: ['ANSWER_WITH_AI', 'TRANSFER', 'REJECT', 'SELECT_AGENT'],
      });
      expect(created.status).toBe(200);
      expect(created.body.data).toEqual({
        id: expect.stringMatching(/^irp_[0-9a-f-]{36}$/),
        scope: 'PHONE_NUMBER',
        phone_number_id: numberId,
        phone_number: { id: numberId, number: NUMBER },
        agent_id: null,
        agent: null,
        name: 'Front desk',
        enabled: true,
        webhook_url: `${decision.url}/route`,
        has_webhook_secret: true,
        timeout_ms: 2000,
        failure_action: 'REJECT',
        allowed_actions: ['ANSWER_WITH_AI', 'TRANSFER', 'REJECT', 'SELECT_AGENT'],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(JSON.stringify(created.body)).not.toContain(SECRET);
      const id = created.body.data.id;
      const dup = await createPolicy({
        scope: 'PHONE_NUMBER',
        phone_number_id: numberId,
        webhook_url: 'https://p.example/r',
      });
      expect(dup.status).toBe(409);

      const list = await api('/inbound-route-policies', { key });
      expect(list.status).toBe(200);
      expect(list.body.data.policies.map((p: { id: string }) => p.id)).toContain(id);
      expect((await api('/inbound-route-policies', { key: otherKey })).body.data.policies).toEqual([]);
      expect((await api(`/inbound-route-policies/${id}`, { key: otherKey })).status).toBe(404);
      expect(
        (
          await api(`/inbound-route-policies/${id}`, {
            method: 'PATCH',
            key: otherKey,
            body: { enabled: false },
          })
        ).status,
      ).toBe(404);

      const patched = await api(`/inbound-route-policies/${id}`, {
        method: 'PATCH',
        key,
        body: { enabled: false, webhook_secret: null },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({
        enabled: false,
        has_webhook_secret: false,
        name: 'Front desk',
      });
      const scopeChange = await api(`/inbound-route-policies/${id}`, {
        method: 'PATCH',
        key,
        body: { scope: 'PARTNER' },
      });
      expect(scopeChange.status).toBe(400);
      for (const field of [
        'name',
        'enabled',
        'webhook_url',
        'timeout_ms',
        'failure_action',
        'allowed_actions',
      ]) {
        const cleared = await api(`/inbound-route-policies/${id}`, {
          method: 'PATCH',
          key,
          body: { [field]: null },
        });
        expect({ field, status: cleared.status, code: cleared.body.error?.code }).toEqual({
          field,
          status: 400,
          code: 'VALIDATION_ERROR',
        });
        expect(cleared.body.error.message).toContain(field);
      }
      expect((await api(`/inbound-route-policies/${id}`, { key })).body.data).toMatchObject({
        name: 'Front desk',
        enabled: false,
        timeout_ms: 2000,
      });

      expect((await api(`/inbound-route-policies/${id}`, { method: 'DELETE', key: otherKey })).status).toBe(
        404,
      );
      const deleted = await api(`/inbound-route-policies/${id}`, { method: 'DELETE', key });
      expect(deleted.status).toBe(200);
      expect((await api(`/inbound-route-policies/${id}`, { key })).status).toBe(404);
    });
  });

  describe('routing a call', () => {
    let numberPolicy: string;
    let agentPolicy: string;
    let partnerPolicy: string;

    beforeAll(async () => {
      const base = {
        webhook_url: `${decision.url}/route`,
        webhook_secret: SECRET,
        timeout_ms: 1000,
        failure_action: 'ANSWER_WITH_AI',
      };
      numberPolicy = (
        await createPolicy({ ...base, scope: 'PHONE_NUMBER', phone_number_id: numberId, name: 'number' })
      ).body.data.id;
      agentPolicy = (await createPolicy({ ...base, scope: 'AGENT', agent_id: agentId, name: 'agent' })).body
        .data.id;
      partnerPolicy = (
        await createPolicy({ ...base, scope: 'PARTNER', name: 'partner', failure_action: 'REJECT' })
      ).body.data.id;
    });

    const setEnabled = (id: string, enabled: boolean) =>
      api(`/inbound-route-policies/${id}`, { method: 'PATCH', key, body: { enabled } });

    it('sends inbound.route with the contract body and a verifiable signature, and records the answer', async () => {
      decision.answerWith({ body: { action: 'ANSWER_WITH_AI' } });
      const before = decision.requests.length;
      const res = await simulate();
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        policy_id: numberPolicy,
        policy_scope: 'PHONE_NUMBER',
        phone_number_id: numberId,
        provider: 'sandbox',
        from_number: '+919800000001',
        to_number: NUMBER,
        action: 'ANSWER_WITH_AI',
        source: 'webhook',
        agent_id: agentId,
        webhook_status: 200,
        failure_reason: null,
      });
      expect(res.body.data.webhook_latency_ms).toEqual(expect.any(Number));
      const sent = decision.requests[before];
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.headers['x-vap-event']).toBe('inbound.route');
      expect(Math.abs(Number(sent.headers['x-vap-timestamp']) - Date.now())).toBeLessThan(60_000);
      expect(signatureValid(sent.headers, sent.rawBody, SECRET)).toBe(true);
      expect(signatureValid(sent.headers, sent.rawBody, 'another-secret-000000')).toBe(false);
      expect(sent.json).toEqual({
        event: 'inbound.route',
        version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        provider: 'sandbox',
        call: {
          provider_call_id: res.body.data.provider_call_id,
          from_number: '+919800000001',
          to_number: NUMBER,
        },
        phone_number: { id: numberId, number: NUMBER },
        agent: { id: agentId },
        partner: { id: partnerId },
      });
    });

    it('applies each answer: TRANSFER, SELECT_AGENT, REJECT', async () => {
      decision.answerWith({ body: { action: 'TRANSFER', to_number: '+919811111111' } });
      expect((await simulate()).body.data).toMatchObject({
        action: 'TRANSFER',
        source: 'webhook',
        transfer_to_number: '+919811111111',
        agent_id: null,
      });
      decision.answerWith({ body: { action: 'SELECT_AGENT', agent_id: otherAgentId } });
      expect((await simulate()).body.data).toMatchObject({
        action: 'SELECT_AGENT',
        source: 'webhook',
        agent_id: otherAgentId,
      });
      decision.answerWith({ body: { action: 'REJECT' } });
      expect((await simulate()).body.data).toMatchObject({
        action: 'REJECT',
        source: 'webhook',
        agent_id: null,
      });
    });

    it.each([
      ['garbage', { body: 'not json at all' }, /invalid answer: response is not JSON/],
      ['an unknown action', { body: { action: 'PARK' } }, /invalid answer: action must be one of/],
      ['TRANSFER without E.164 to_number', { body: { action: 'TRANSFER', to_number: '12345' } }, /E\.164/],
      ['SELECT_AGENT without agent_id', { body: { action: 'SELECT_AGENT' } }, /agent_id/],
      [
        'SELECT_AGENT with a foreign agent',
        { body: { action: 'SELECT_AGENT', agent_id: '00000000-0000-4000-8000-000000000000' } },
        /not an agent of this account/,
      ],
      ['HTTP 500', { status: 500, body: { action: 'REJECT' } }, /HTTP 500/],
      ['a timeout', { delayMs: 2500, body: { action: 'REJECT' } }, /timeout after 1000 ms/],
    ])('applies failure_action on %s', async (_label, answer, reason) => {
      decision.answerWith(answer);
      const res = await simulate();
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        policy_id: numberPolicy,
        action: 'ANSWER_WITH_AI',
        source: 'failure_action',
        agent_id: agentId,
      });
      expect(res.body.data.failure_reason).toMatch(reason);
    });

    it('resolves PHONE_NUMBER, then AGENT, then PARTNER, skipping disabled policies', async () => {
      decision.answerWith({ body: { action: 'ANSWER_WITH_AI' } });
      await setEnabled(numberPolicy, false);
      expect((await simulate()).body.data).toMatchObject({ policy_id: agentPolicy, policy_scope: 'AGENT' });
      await setEnabled(agentPolicy, false);
      expect((await simulate()).body.data).toMatchObject({
        policy_id: partnerPolicy,
        policy_scope: 'PARTNER',
      });
      // The second number has no agent: its policy order goes straight from PHONE_NUMBER to PARTNER.
      await setEnabled(agentPolicy, true);
      expect((await simulate(SECOND)).body.data).toMatchObject({
        policy_id: partnerPolicy,
        agent_id: null,
        action: 'REJECT',
        source: 'failure_action',
      });
      decision.answerWith({ body: { action: 'TRANSFER', to_number: '+919822222222' } });
      expect((await simulate(SECOND)).body.data).toMatchObject({
        policy_id: partnerPolicy,
        action: 'TRANSFER',
        source: 'webhook',
      });
      await setEnabled(partnerPolicy, false);
      expect((await simulate(SECOND)).body.data).toMatchObject({
        policy_id: null,
        action: 'REJECT',
        source: 'no_policy',
      });
      await setEnabled(agentPolicy, false);
      expect((await simulate()).body.data).toMatchObject({
        policy_id: null,
        action: 'ANSWER_WITH_AI',
        source: 'no_policy',
        agent_id: agentId,
        webhook_status: null,
      });
      for (const id of [numberPolicy, agentPolicy, partnerPolicy]) await setEnabled(id, true);
    });

    it('answers 404 for a number that is not the account’s', async () => {
      expect((await simulate('+14155559999')).status).toBe(404);
      expect((await simulate(NUMBER, otherKey)).status).toBe(404);
    });

    it('lists recorded decisions with filters and pagination, only the account’s own', async () => {
      const all = await api('/inbound-route-decisions?limit=100', { key });
      expect(all.status).toBe(200);
      const decisions = all.body.data.decisions as { action: string; source: string; created_at: string }[];
      expect(decisions.length).toBeGreaterThanOrEqual(15);
      expect(decisions.map((d) => d.created_at)).toEqual([...decisions.map((d) => d.created_at)].sort());

      const transfers = await api('/inbound-route-decisions?action=TRANSFER', { key });
      expect(transfers.body.data.decisions.every((d: { action: string }) => d.action === 'TRANSFER')).toBe(
        true,
      );
      expect(transfers.body.data.decisions.length).toBeGreaterThanOrEqual(2);
      const fallbacks = await api(
        `/inbound-route-decisions?source=failure_action&policy_id=${numberPolicy}`,
        { key },
      );
      expect(fallbacks.body.data.decisions.length).toBe(7);
      const byNumber = await api(`/inbound-route-decisions?phone_number_id=${numberId}&limit=3`, { key });
      expect(byNumber.body.data.decisions).toHaveLength(3);
      const next = await api(
        `/inbound-route-decisions?phone_number_id=${numberId}&limit=3&cursor=${byNumber.body.data.next_cursor}`,
        { key },
      );
      expect(next.body.data.decisions[0].id).not.toBe(byNumber.body.data.decisions[2].id);
      const future = await api(
        `/inbound-route-decisions?from=${new Date(Date.now() + 60_000).toISOString()}`,
        { key },
      );
      expect(future.body.data.decisions).toEqual([]);
      expect((await api('/inbound-route-decisions?action=HOLD', { key })).status).toBe(400);
      expect((await api('/inbound-route-decisions', { key: otherKey })).body.data.decisions).toEqual([]);
    });
  });
});
