import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { connect, NatsConnection, StringCodec, Subscription } from 'nats';
import { waitFor } from '@vap/testing';
import { api, createPartner, e2eEnv } from '../../support';
import { DecisionServer, startDecisionServer } from '../../support/decision-server';
import { createTestAgent } from '../telephony/telephony-fixtures';
import { CampaignsPartner } from '../campaigns/campaign-fixtures';
import { CallsPartner, callee, EventTap, HANGS_UP_AFTER_INTRO } from './call-fixtures';

/** Recomputes the documented X-Vap-Signature, as a partner's server would. */
function signatureValid(headers: Record<string, unknown>, rawBody: string, secret: string): boolean {
  const timestamp = String(headers['x-vap-timestamp']);
  const given = Buffer.from(String(headers['x-vap-signature']));
  const expected = Buffer.from(
    `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`,
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface LoggedRequest {
  id: string;
  partnerId: string;
  kind: string;
  callId: string | null;
  agentId: string | null;
  hookId: string | null;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  status: number | null;
  responseBody: string | null;
  outcome: string;
  error: string | null;
  latencyMs: number;
  attempts: number;
}

/** The integration log entries the platform publishes (events.integration.request_logged). */
class IntegrationLogTap {
  readonly entries: LoggedRequest[] = [];
  private nc: NatsConnection | null = null;
  private sub: Subscription | null = null;

  static async open(): Promise<IntegrationLogTap> {
    const tap = new IntegrationLogTap();
    const { natsUrl, natsPrefix } = e2eEnv();
    const sc = StringCodec();
    tap.nc = await connect({ servers: natsUrl, name: 'e2e-integration-log-tap' });
    tap.sub = tap.nc.subscribe(`${natsPrefix}.events.integration.request_logged`, {
      callback: (err, msg) => {
        if (!err) tap.entries.push((JSON.parse(sc.decode(msg.data)) as { data: LoggedRequest }).data);
      },
    });
    await tap.nc.flush();
    return tap;
  }

  of(callId: string, kind: string): Promise<LoggedRequest[]> {
    return waitFor(
      () => {
        const found = this.entries.filter((e) => e.callId === callId && e.kind === kind);
        return found.length ? found : undefined;
      },
      { timeoutMs: 15_000, description: `a ${kind} integration log entry of ${callId}` },
    );
  }

  async close(): Promise<void> {
    this.sub?.unsubscribe();
    await this.nc?.close();
  }
}

describe('lifecycle hooks', () => {
  let tap: EventTap;
  let log: IntegrationLogTap;
  let hookServer: DecisionServer;

  beforeAll(async () => {
    tap = await EventTap.open();
    log = await IntegrationLogTap.open();
    hookServer = await startDecisionServer();
  });

  afterAll(async () => {
    await tap?.close();
    await log?.close();
    await hookServer?.close();
  });

  const createHook = (key: string, body: Record<string, unknown>) =>
    api('/lifecycle-hooks', { method: 'POST', key, body });

  describe('settings', () => {
    let key: string;
    let otherKey: string;
    let agentId: string;
    let otherAgentId: string;

    beforeAll(async () => {
      ({ apiKey: key } = await createPartner({ name: 'Hooks settings Co' }));
      ({ apiKey: otherKey } = await createPartner({ name: 'Hooks settings Other Co' }));
      agentId = (await createTestAgent(key)).id;
      otherAgentId = (await createTestAgent(otherKey)).id;
    });

    it.each([
      ['no event', { url: 'https://p.example/h' }, 'event'],
      ['an unknown event', { event: 'mid_call', url: 'https://p.example/h' }, 'event'],
      ['no url', { event: 'pre_call' }, 'url'],
      ['an http url', { event: 'pre_call', url: 'http://p.example/h' }, 'url'],
      ['a url with credentials', { event: 'pre_call', url: 'https://u:p@p.example/h' }, 'url'],
      ['agent_id not a uuid', { event: 'pre_call', url: 'https://p.example/h', agent_id: 'a-1' }, 'agent_id'],
      [
        'a pre_call timeout over 3 s',
        { event: 'pre_call', url: 'https://p.example/h', timeout_ms: 3500 },
        'timeout_ms',
      ],
      [
        'a timeout under 500 ms',
        { event: 'post_call', url: 'https://p.example/h', timeout_ms: 100 },
        'timeout_ms',
      ],
      [
        'failure_action on post_call',
        { event: 'post_call', url: 'https://p.example/h', failure_action: 'block' },
        'failure_action',
      ],
      [
        'an unknown failure_action',
        { event: 'pre_call', url: 'https://p.example/h', failure_action: 'retry' },
        'failure_action',
      ],
      ['an unknown field', { event: 'pre_call', url: 'https://p.example/h', secret: 'mine' }, 'secret'],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, body, field) => {
      const res = await createHook(key, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.error)).toContain(field);
    });

    it('shows the secret once, at creation and rotation, and one hook per event and scope', async () => {
      const created = await createHook(key, { event: 'post_call', url: 'https://p.example/post' });
      expect(created.status).toBe(200);
      const hook = created.body.data;
      expect(hook).toMatchObject({
        id: expect.stringMatching(/^hook_[0-9a-f-]{36}$/),
        event: 'post_call',
        agent_id: null,
        url: 'https://p.example/post',
        timeout_ms: 10000,
        failure_action: null,
        enabled: true,
        secret: expect.stringMatching(/^hksec_/),
      });
      const got = await api(`/lifecycle-hooks/${hook.id}`, { key });
      expect(got.status).toBe(200);
      expect(got.body.data).not.toHaveProperty('secret');
      expect(JSON.stringify(got.body)).not.toContain(hook.secret);
      const listed = await api('/lifecycle-hooks', { key });
      expect(listed.body.data.hooks.map((h: { id: string }) => h.id)).toContain(hook.id);
      expect(JSON.stringify(listed.body)).not.toContain(hook.secret);

      const again = await createHook(key, { event: 'post_call', url: 'https://p.example/other' });
      expect({ status: again.status, code: again.body.error?.code }).toEqual({
        status: 409,
        code: 'CONFLICT',
      });
      // Another scope (an agent's) and another event are other hooks.
      const forAgent = await createHook(key, {
        event: 'post_call',
        url: 'https://p.example/a',
        agent_id: agentId,
      });
      expect(forAgent.status).toBe(200);
      const agentAgain = await createHook(key, {
        event: 'post_call',
        url: 'https://p.example/b',
        agent_id: agentId,
      });
      expect(agentAgain.status).toBe(409);
      const preCall = await createHook(key, { event: 'pre_call', url: 'https://p.example/pre' });
      expect(preCall.body.data).toMatchObject({ timeout_ms: 2000, failure_action: 'continue' });

      const rotated = await api(`/lifecycle-hooks/${hook.id}/rotate-secret`, { method: 'POST', key });
      expect(rotated.status).toBe(200);
      expect(rotated.body.data.secret).toMatch(/^hksec_/);
      expect(rotated.body.data.secret).not.toBe(hook.secret);

      const patched = await api(`/lifecycle-hooks/${preCall.body.data.id}`, {
        method: 'PATCH',
        key,
        body: { failure_action: 'block', timeout_ms: 1500, enabled: false },
      });
      expect(patched.body.data).toMatchObject({ failure_action: 'block', timeout_ms: 1500, enabled: false });
      const tooLong = await api(`/lifecycle-hooks/${preCall.body.data.id}`, {
        method: 'PATCH',
        key,
        body: { timeout_ms: 20000 },
      });
      expect(tooLong.status).toBe(400);

      for (const id of [hook.id, forAgent.body.data.id, preCall.body.data.id]) {
        expect((await api(`/lifecycle-hooks/${id}`, { method: 'DELETE', key })).body.data).toEqual({
          id,
          deleted: true,
        });
      }
      expect((await api(`/lifecycle-hooks/${hook.id}`, { key })).status).toBe(404);
    });

    it('deletes an agent’s hooks with the agent', async () => {
      const doomed = (await createTestAgent(key)).id;
      const hook = (
        await createHook(key, { event: 'pre_call', url: 'https://p.example/h', agent_id: doomed })
      ).body.data;
      expect((await api(`/agent/${doomed}`, { method: 'DELETE', key })).status).toBe(200);
      await waitFor(async () => (await api(`/lifecycle-hooks/${hook.id}`, { key })).status === 404, {
        timeoutMs: 15_000,
        intervalMs: 250,
        description: 'the deleted agent’s hook to go',
      });
    });

    it('answers 404 for another account’s agent and another account’s hook', async () => {
      const foreignAgent = await createHook(key, {
        event: 'pre_call',
        url: 'https://p.example/h',
        agent_id: otherAgentId,
      });
      expect({ status: foreignAgent.status, code: foreignAgent.body.error?.code }).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      const theirs = (await createHook(otherKey, { event: 'pre_call', url: 'https://p.example/h' })).body
        .data;
      expect((await api(`/lifecycle-hooks/${theirs.id}`, { key })).status).toBe(404);
      expect(
        (await api(`/lifecycle-hooks/${theirs.id}`, { method: 'PATCH', key, body: { enabled: false } }))
          .status,
      ).toBe(404);
      expect((await api(`/lifecycle-hooks/${theirs.id}/rotate-secret`, { method: 'POST', key })).status).toBe(
        404,
      );
      expect((await api(`/lifecycle-hooks/${theirs.id}`, { method: 'DELETE', key })).status).toBe(404);
      expect((await api(`/lifecycle-hooks/hook_${randomUUID()}`, { key })).status).toBe(404);
      expect((await api('/lifecycle-hooks/not-an-id', { key })).status).toBe(404);
      expect((await api('/lifecycle-hooks', { key })).body.data.hooks).toEqual([]);
      expect((await api(`/lifecycle-hooks/${theirs.id}`, { key: otherKey })).status).toBe(200);
    });
  });

  describe('pre-call', () => {
    let partner: CallsPartner;
    let agent: { id: string };
    let hook: { id: string; secret: string };

    beforeAll(async () => {
      partner = await CallsPartner.create({ concurrency_limit: 20 });
      agent = await partner.createAgent({
        intro_message: 'Hello {{first_name}}, this is Maya from Acme Health.',
      });
      const res = await createHook(partner.generalKey, {
        event: 'pre_call',
        url: hookServer.url,
        agent_id: agent.id,
        timeout_ms: 1000,
      });
      expect(res.status).toBe(200);
      hook = res.body.data;
    });

    const setHook = (body: Record<string, unknown>) =>
      api(`/lifecycle-hooks/${hook.id}`, { method: 'PATCH', key: partner.generalKey, body });

    it("sends the signed call context, and the answer's variables are in what the agent says", async () => {
      hookServer.answerWith({ body: { variables: { first_name: 'Asha', tier: 'gold' } } });
      const before = hookServer.requests.length;
      const res = await partner.start({
        agent_id: agent.id,
        to_number: callee(HANGS_UP_AFTER_INTRO),
        client_reference_id: 'hooked-1',
        variables: { first_name: 'Nobody', order_id: 'A-1001' },
      });
      expect(res.status).toBe(200);
      const callId: string = res.body.data.call_id;
      expect(res.body.data.session.variables).toEqual({
        first_name: 'Asha',
        order_id: 'A-1001',
        tier: 'gold',
      });

      const sent = hookServer.requests[before];
      expect(sent.headers['x-vap-event']).toBe('pre_call');
      expect(sent.headers['x-vap-hook-id']).toBe(hook.id);
      expect(signatureValid(sent.headers, sent.rawBody, hook.secret)).toBe(true);
      expect(signatureValid(sent.headers, sent.rawBody, 'hksec_another')).toBe(false);
      expect(sent.json).toEqual({
        event: 'pre_call',
        hook_id: hook.id,
        call: {
          call_id: callId,
          session_id: res.body.data.session_id,
          direction: 'outbound',
          from_number: res.body.data.from_number,
          to_number: res.body.data.to_number,
          agent_id: agent.id,
          campaign_id: null,
          client_reference_id: 'hooked-1',
          variables: { first_name: 'Nobody', order_id: 'A-1001' },
        },
      });

      await tap.sessionCompleted(callId);
      const call = (await partner.calls(`/${callId}`)).body.data;
      expect(call.status).toBe('completed');
      expect(call.session.transcript[0]).toMatchObject({
        role: 'bot',
        content: 'Hello Asha, this is Maya from Acme Health.',
      });

      const [entry] = await log.of(callId, 'pre_call_hook');
      expect(entry).toMatchObject({
        partnerId: partner.id,
        hookId: hook.id,
        agentId: agent.id,
        url: hookServer.url,
        status: 200,
        outcome: 'success',
        error: null,
        attempts: 1,
      });
      expect(entry.requestHeaders['x-vap-signature']).toBe('********');
      expect(entry.requestBody).toBe(sent.rawBody);
      expect(JSON.stringify(entry)).not.toContain(hook.secret);
    });

    it('ends a refused call blocked with its reason, undialled and billed nothing', async () => {
      hookServer.answerWith({ body: { action: 'block', reason: 'customer asked not to be called' } });
      const res = await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'canceled', disposition: 'blocked' });
      const callId: string = res.body.data.call_id;
      const completed = await tap.sessionCompleted(callId);
      expect(completed.data).toMatchObject({ status: 'failed', duration_seconds: 0, credits_used: 0 });
      await tap.waitFor(() => tap.statuses(callId).length >= 2, 10_000, 'the blocked call’s statuses');
      expect(tap.statuses(callId)).toEqual(['pending', 'canceled']);
      const call = (await partner.calls(`/${callId}`)).body.data;
      expect(call).toMatchObject({
        status: 'canceled',
        disposition: 'blocked',
        end_call_reason: 'pre_call_hook_blocked',
        hangup_source: 'system',
        bill_duration_seconds: 0,
        started_at: null,
      });
      expect(call.error_message).toContain('customer asked not to be called');
      const [entry] = await log.of(callId, 'pre_call_hook');
      expect(entry).toMatchObject({ outcome: 'success', status: 200 });
    });

    it('signs with the new secret at once after a rotation', async () => {
      const rotated = await api(`/lifecycle-hooks/${hook.id}/rotate-secret`, {
        method: 'POST',
        key: partner.generalKey,
      });
      expect(rotated.status).toBe(200);
      const previous = hook.secret;
      hook = { ...hook, secret: rotated.body.data.secret };
      hookServer.answerWith({ body: { action: 'block' } });
      const before = hookServer.requests.length;
      const res = await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) });
      expect(res.body.data.disposition).toBe('blocked');
      const sent = hookServer.requests[before];
      expect(signatureValid(sent.headers, sent.rawBody, hook.secret)).toBe(true);
      expect(signatureValid(sent.headers, sent.rawBody, previous)).toBe(false);
    });

    it('follows failure_action on a timeout: continue dials unchanged, block ends the call blocked', async () => {
      hookServer.answerWith({ delayMs: 2500, body: { action: 'block' } });
      const goesOn = await partner.start({
        agent_id: agent.id,
        to_number: callee(HANGS_UP_AFTER_INTRO),
        variables: { first_name: 'Ravi' },
      });
      expect(goesOn.status).toBe(200);
      expect(goesOn.body.data.disposition).toBeNull();
      expect(goesOn.body.data.session.variables).toEqual({ first_name: 'Ravi' });
      const [timedOut] = await log.of(goesOn.body.data.call_id, 'pre_call_hook');
      expect(timedOut).toMatchObject({ outcome: 'timeout', status: null, responseBody: null });
      expect(timedOut.error).toMatch(/no answer within 1000 ms/);
      await tap.sessionCompleted(goesOn.body.data.call_id);
      const spoken = (await partner.calls(`/${goesOn.body.data.call_id}`)).body.data;
      expect(spoken.session.transcript[0].content).toBe('Hello Ravi, this is Maya from Acme Health.');

      expect((await setHook({ failure_action: 'block' })).status).toBe(200);
      const blocked = await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) });
      expect(blocked.body.data).toMatchObject({ status: 'canceled', disposition: 'blocked' });
      const call = (await partner.calls(`/${blocked.body.data.call_id}`)).body.data;
      expect(call.error_message).toMatch(/pre-call hook failed: no answer within 1000 ms/);

      // An invalid answer is a failure too.
      hookServer.answerWith({ body: { actoin: 'continue' } });
      const invalid = await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) });
      expect(invalid.body.data.disposition).toBe('blocked');
      const [entry] = await log.of(invalid.body.data.call_id, 'pre_call_hook');
      expect(entry).toMatchObject({ outcome: 'success', status: 200 });
      expect(entry.error).toMatch(/invalid answer: unknown field actoin/);
      expect((await setHook({ failure_action: 'continue' })).status).toBe(200);
      await tap.sessionCompleted(invalid.body.data.call_id);
    });

    it('keeps idempotency: a retry during the hook gets the same call and the hook is asked once', async () => {
      hookServer.answerWith({ delayMs: 600, body: { variables: { first_name: 'Asha' } } });
      const before = hookServer.requests.length;
      const key = `hooked-${randomUUID()}`;
      const body = { agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) };
      // The retry goes once the hook is asked: the first start holds the key by then, whatever the machine's load
      // (a retry sent after a fixed time could overtake a slow first start and be the one that starts the call).
      const firstStart = partner.start(body, { 'Idempotency-Key': key });
      await waitFor(() => hookServer.requests.length > before || undefined, {
        timeoutMs: 15_000,
        description: 'the pre-call hook asked about the first start',
      });
      const [first, second] = await Promise.all([
        firstStart,
        partner.start(body, { 'Idempotency-Key': key }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.data.call_id).toBe(first.body.data.call_id);
      expect(second.headers.get('idempotency-replayed')).toBe('true');
      expect(hookServer.requests.length - before).toBe(1);
      await tap.sessionCompleted(first.body.data.call_id);
    });

    it('frees the concurrency slot of a blocked call, and treats an oversized answer as a failure', async () => {
      const small = await CallsPartner.create({ concurrency_limit: 1 });
      const smallAgent = await small.createAgent({ intro_message: 'Hello {{first_name}}.' });
      const server = await startDecisionServer();
      try {
        expect((await createHook(small.generalKey, { event: 'pre_call', url: server.url })).status).toBe(200);
        server.answerWith({ body: { action: 'block' } });
        for (let i = 0; i < 3; i++) {
          const blocked = await small.start({
            agent_id: smallAgent.id,
            to_number: callee(HANGS_UP_AFTER_INTRO),
          });
          expect(blocked.status).toBe(200);
          expect(blocked.body.data).toMatchObject({ status: 'canceled', disposition: 'blocked' });
          expect((await small.calls(`/${blocked.body.data.call_id}`)).body.data.error_message).toBe(
            'Blocked by the pre-call hook: refused by the pre-call hook',
          );
        }
        // Over 64 KB: not read, failure_action continue, the call goes on with its own variables.
        server.answerWith({ body: { variables: { first_name: 'x'.repeat(70 * 1024) } } });
        const big = await small.start({
          agent_id: smallAgent.id,
          to_number: callee(HANGS_UP_AFTER_INTRO),
          variables: { first_name: 'Ravi' },
        });
        expect(big.status).toBe(200);
        expect(big.body.data.disposition).toBeNull();
        expect(big.body.data.session.variables).toEqual({ first_name: 'Ravi' });
        const [entry] = await log.of(big.body.data.call_id, 'pre_call_hook');
        expect(entry.outcome).toBe('http_error');
        expect(entry.error).toMatch(/exceeds 65536 bytes/);
        await tap.sessionCompleted(big.body.data.call_id);
      } finally {
        await server.close();
      }
    });

    it("runs the agent's own hook over the account default, and none when the agent's is disabled", async () => {
      const fallback = new Set<string>();
      const defaultServer = await startDecisionServer();
      try {
        defaultServer.answerWith({ body: { action: 'block', reason: 'account default' } });
        const created = await createHook(partner.generalKey, { event: 'pre_call', url: defaultServer.url });
        expect(created.status).toBe(200);
        fallback.add(created.body.data.id);
        hookServer.answerWith({ body: {} });
        const own = await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) });
        expect(own.body.data.disposition).toBeNull();
        expect(defaultServer.requests).toHaveLength(0);

        const other = await partner.createAgent();
        const byDefault = await partner.start({
          agent_id: other.id,
          to_number: callee(HANGS_UP_AFTER_INTRO),
        });
        expect(byDefault.body.data).toMatchObject({ status: 'canceled', disposition: 'blocked' });
        expect(defaultServer.requests).toHaveLength(1);

        expect((await setHook({ enabled: false })).status).toBe(200);
        const off = await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) });
        expect(off.body.data.disposition).toBeNull();
        expect(defaultServer.requests).toHaveLength(1);
        for (const c of [own, byDefault, off]) await tap.sessionCompleted(c.body.data.call_id);
      } finally {
        await setHook({ enabled: true });
        for (const id of fallback)
          await api(`/lifecycle-hooks/${id}`, { method: 'DELETE', key: partner.generalKey });
        await defaultServer.close();
      }
    });
  });

  describe('post-call', () => {
    let partner: CallsPartner;
    let agent: { id: string };
    let hook: { id: string; secret: string };
    let server: DecisionServer;

    beforeAll(async () => {
      server = await startDecisionServer();
      partner = await CallsPartner.create({ concurrency_limit: 20 });
      agent = await partner.createAgent();
      const res = await createHook(partner.generalKey, { event: 'post_call', url: server.url });
      expect(res.status).toBe(200);
      hook = res.body.data;
    });

    afterAll(async () => {
      await server?.close();
    });

    const postCallHookOf = (callId: string, status: string) =>
      waitFor(
        async () => {
          const call = (await partner.calls(`/${callId}`)).body.data;
          return call.session.post_call_hook?.status === status ? call : undefined;
        },
        { timeoutMs: 40_000, intervalMs: 1000, description: `post_call_hook ${status} on ${callId}` },
      );

    it('sends the completed session, signed, and stores its answer on the session', async () => {
      server.answerWith({ body: { crm_id: 'CRM-42', saved: true } });
      const res = await partner.start({
        agent_id: agent.id,
        to_number: callee(HANGS_UP_AFTER_INTRO),
        variables: { customer_name: 'Asha' },
      });
      const callId: string = res.body.data.call_id;
      const completed = await tap.sessionCompleted(callId);
      const call = await postCallHookOf(callId, 'delivered');
      expect(call.session.post_call_hook).toEqual({
        hook_id: hook.id,
        status: 'delivered',
        outcome: 'success',
        http_status: 200,
        response: JSON.stringify({ crm_id: 'CRM-42', saved: true }),
        attempts: 1,
        completed_at: expect.any(String),
      });
      const sent = server.requests.find(
        (r) => (r.json as { session?: { call_id?: string } })?.session?.call_id === callId,
      )!;
      expect(sent.headers['x-vap-event']).toBe('post_call');
      expect(signatureValid(sent.headers, sent.rawBody, hook.secret)).toBe(true);
      expect(sent.json).toEqual({ event: 'post_call', hook_id: hook.id, session: completed.data });
      const [entry] = await log.of(callId, 'post_call_hook');
      expect(entry).toMatchObject({ hookId: hook.id, outcome: 'success', status: 200, attempts: 1 });
    });

    it('retries a failed request with backoff, and runs for a call that never connected', async () => {
      server.answerWith({ status: 503, body: { error: 'busy' } });
      const res = await partner.start({ agent_id: agent.id, to_number: callee('01') });
      const callId: string = res.body.data.call_id;
      await tap.sessionCompleted(callId);
      const first = await waitFor(
        async () => {
          const call = (await partner.calls(`/${callId}`)).body.data;
          return call.session.post_call_hook?.attempts >= 1 ? call : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 500, description: 'the first post-call hook attempt' },
      );
      expect(first.session.post_call_hook).toMatchObject({
        status: 'pending',
        outcome: 'http_error',
        http_status: 503,
        response: null,
        completed_at: null,
      });
      server.answerWith({ body: 'thanks' });
      const call = await postCallHookOf(callId, 'delivered');
      expect(call.session.post_call_hook.attempts).toBeGreaterThanOrEqual(2);
      expect(call.session.post_call_hook.response).toBe('thanks');
      const entries = await log.of(callId, 'post_call_hook');
      expect(entries[0]).toMatchObject({
        outcome: 'http_error',
        status: 503,
        error: 'HTTP 503',
        attempts: 1,
      });
    });
  });

  describe('inbound', () => {
    let key: string;
    let server: DecisionServer;
    let router: DecisionServer;
    const NUMBER = `+1415556${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;

    beforeAll(async () => {
      server = await startDecisionServer();
      ({ apiKey: key } = await createPartner({ name: 'Hooks inbound Co' }));
      const agentId = (await createTestAgent(key, { agent_type: 'inbound', intro_message: 'Hello' })).id;
      await api('/config/telephony/carrier_b', {
        method: 'PUT',
        key,
        body: {
          account_sid: 'AChooks00000000000000000000000001',
          auth_token: 'hooks-token-0000000000',
          from_number: '+14155560399',
        },
      });
      const imported = await api('/phone-numbers', {
        method: 'POST',
        key,
        body: { number: NUMBER, provider: 'carrier_b', agent_id: agentId },
      });
      expect(imported.status).toBe(200);
      const hook = await createHook(key, { event: 'pre_call', url: server.url });
      expect(hook.status).toBe(200);
      router = await startDecisionServer();
      router.answerWith({ body: { action: 'ANSWER_WITH_AI' } });
      const policy = await api('/inbound-route-policies', {
        method: 'POST',
        key,
        body: { scope: 'PARTNER', webhook_url: router.url, webhook_secret: 'route-secret-0123456789' },
      });
      expect(policy.status).toBe(200);
    });

    afterAll(async () => {
      await server?.close();
      await router?.close();
    });

    it('asks before answering, and a refusal ends the inbound call blocked', async () => {
      server.answerWith({ body: { action: 'block', reason: 'known spam caller' } });
      const res = await api('/sandbox/inbound-calls', {
        method: 'POST',
        key,
        body: { to_number: NUMBER, from_number: '+919800000002' },
      });
      expect(res.status).toBe(200);
      const callId: string = res.body.data.call_id;
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0].json).toMatchObject({
        event: 'pre_call',
        call: { call_id: callId, direction: 'inbound', from_number: '+919800000002', to_number: NUMBER },
      });
      const call = await waitFor(
        async () => {
          const got = (await api(`/calls/${callId}`, { key })).body.data;
          return got?.status === 'canceled' ? got : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 500, description: 'the blocked inbound call' },
      );
      expect(call).toMatchObject({
        direction: 'inbound',
        disposition: 'blocked',
        end_call_reason: 'pre_call_hook_blocked',
        started_at: null,
      });
      // Both requests to the partner are in the integration log: the routing decision, then the hook.
      expect(router.requests).toHaveLength(1);
      const decided = await waitFor(
        () => log.entries.find((e) => e.kind === 'inbound_decision' && e.url === router.url),
        { timeoutMs: 15_000, description: 'the inbound_decision log entry' },
      );
      expect(decided).toMatchObject({ outcome: 'success', status: 200, callId: null, error: null });
      expect(decided.requestHeaders['x-vap-signature']).toBe('********');
      expect(decided.requestBody).toBe(router.requests[0].rawBody);
      const [hooked] = await log.of(callId, 'pre_call_hook');
      expect(hooked).toMatchObject({ outcome: 'success', url: server.url });
    });
  });

  describe('campaigns', () => {
    let server: DecisionServer;

    beforeAll(async () => {
      server = await startDecisionServer();
    });

    afterAll(async () => {
      await server?.close();
    });

    it('names the campaign, and a contact whose call the hook blocks is skipped, not retried', async () => {
      const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
      const hook = await createHook(partner.key, { event: 'pre_call', url: server.url });
      expect(hook.status).toBe(200);
      server.answerWith({ body: { action: 'block', reason: 'already a customer' } });
      const campaign = await partner.createCampaign({ retry_count: 2, retry_delays_minutes: [1] });
      const numbers = [callee(HANGS_UP_AFTER_INTRO), callee(HANGS_UP_AFTER_INTRO)];
      expect(
        (await partner.addContacts(campaign.campaign_id, numbers, { customer_name: 'Asha' })).status,
      ).toBe(200);
      expect((await partner.start(campaign.campaign_id)).status).toBe(200);
      const done = await partner.waitForStatus(campaign.campaign_id, 'completed', 60_000);
      expect(done).toMatchObject({
        total_contacts: 2,
        completed_count: 0,
        failed_count: 0,
        skipped_count: 2,
      });
      // One request per contact: a blocked contact is not dialled again.
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests)
        expect(request.json).toMatchObject({
          event: 'pre_call',
          call: { campaign_id: campaign.campaign_id, variables: { customer_name: 'Asha' } },
        });
      const dialled = server.requests.map((r) => (r.json as { call: { to_number: string } }).call.to_number);
      expect(dialled.sort()).toEqual([...numbers].sort());
    });
  });
});
