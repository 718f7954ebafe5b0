// carrier_a and carrier_b end to end: a platform of its own (own database and NATS subject prefix, so its
// calls service shares no commands with the run's) whose carrier base URLs point at a local fake carrier.
import { Client } from 'pg';
import { TestDatabase, waitFor } from '@vap/testing';
import { adminApi, api, CALL_SERVICES, OwnPlatform, startOwnPlatform } from '../../support';
import { DecisionServer, startDecisionServer } from '../../support/decision-server';
import {
  CarrierAccount,
  FakeCarriers,
  PlacedCall,
  signCarrierB,
  startFakeCarriers,
  streamOfAnswer,
} from '../../support/fake-carriers';
import { EventTap } from '../calls/call-fixtures';
import { createTestAgent } from './telephony-fixtures';

const A: CarrierAccount = {
  provider: 'carrier_a',
  id: 'MAFAKEACCOUNT0000001',
  token: 'fake-carrier-a-token-0001',
};
const B: CarrierAccount = {
  provider: 'carrier_b',
  id: 'ACfake00000000000000000000000000b1',
  token: 'fake-carrier-b-token-0001',
};
// The voice service's public base: answered calls stream their audio there (no voice service needed to check
// the markup; the stream itself is exercised by the voice runtime's own specs).
const MEDIA_PUBLIC_URL = 'https://media.carriers.test/voice';
const A_FROM = '+919812300001';
const B_FROM = '+14155560001';

describe('carriers through a fake carrier', () => {
  let fake: FakeCarriers;
  let decision: DecisionServer;
  let own: OwnPlatform;
  let db: TestDatabase;
  let gateway: string;
  let key: string;
  let agentId: string;

  beforeAll(async () => {
    fake = await startFakeCarriers();
    fake.addAccount(A);
    fake.addAccount(B);
    decision = await startDecisionServer();
    own = await startOwnPlatform({
      name: 'carriers',
      services: CALL_SERVICES,
      env: {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA,
        CARRIER_A_BASE_URL: fake.url,
        CARRIER_B_BASE_URL: fake.url,
        MEDIA_PUBLIC_URL,
      },
    });
    db = own.db;
    gateway = own.platform.gatewayUrl;

    const created = await adminApi('/partners', {
      method: 'POST',
      baseUrl: gateway,
      body: { name: 'Carrier Co', balance_inr: 1000, concurrency_limit: 50 },
    });
    expect(created.status).toBe(200);
    key = created.body.data.api_key;
    agentId = (await createTestAgent(key, { intro_message: 'Hello, this is Maya.' }, gateway)).id;
    const putA = await call('/config/telephony/carrier_a', {
      method: 'PUT',
      body: { auth_id: A.id, auth_token: A.token, from_number: A_FROM },
    });
    expect(putA.status).toBe(200);
    const putB = await call('/config/telephony/carrier_b', {
      method: 'PUT',
      body: { account_sid: B.id, auth_token: B.token, from_number: B_FROM },
    });
    expect(putB.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    await fake?.close();
    await decision?.close();
  });

  function call(
    path: string,
    options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    return api(path, { ...options, key, baseUrl: gateway });
  }

  async function start(from: string, to: string): Promise<{ id: string; placed: PlacedCall }> {
    const res = await call('/calls/start', { body: { agent_id: agentId, to_number: to, from_number: from } });
    expect(res.status).toBe(200);
    const placed = await fake.waitForCall(to);
    return { id: res.body.data.call_id, placed };
  }

  const getCall = async (id: string) => (await call(`/calls/${id}`)).body.data;

  /**
   * The answer connects the call's bidirectional media stream on MEDIA_PUBLIC_URL, with a token (the
   * carrier's dialect: carrier_b <Connect><Stream> with the call id as a Parameter, carrier_a a
   * bidirectional mu-law <Stream> that keeps the call alive, the call id in its extraHeaders).
   */
  function expectStream(body: string, provider: 'carrier_a' | 'carrier_b', callId: string) {
    const stream = streamOfAnswer(body);
    expect(stream).toMatchObject({
      base: 'wss://media.carriers.test/voice',
      carrier: provider,
      callId,
      token: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
      parameters: { callId },
    });
    if (provider === 'carrier_a') {
      expect(stream.attributes).toMatchObject({
        bidirectional: 'true',
        keepCallAlive: 'true',
        contentType: 'audio/x-mulaw;rate=8000',
      });
    }
    expect(body).not.toMatch(/<Say>|<Speak>/);
    return stream;
  }
  /** The call without its session, which post-call processing keeps changing after the call ends. */
  const callOnly = async (id: string) => {
    const { session: _session, ...rest } = await getCall(id);
    return rest;
  };

  async function carrierEvents(callId: string): Promise<number> {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM calls.carrier_events WHERE call_id = $1',
        [callId],
      );
      return rows[0].n;
    } finally {
      await client.end();
    }
  }

  describe('carrier_b', () => {
    it('places the call form-encoded with Basic auth, status callbacks and recording', async () => {
      const { id, placed } = await start(B_FROM, '+14155561001');
      const form = placed.form!;
      expect(form.To).toEqual(['+14155561001']);
      expect(form.From).toEqual([B_FROM]);
      expect(form.Url[0]).toBe(`${gateway}/callbacks/carrier_b/${id}/answer`);
      expect(form.StatusCallback[0]).toBe(`${gateway}/callbacks/carrier_b/${id}/status`);
      expect(form.StatusCallbackEvent).toEqual(['initiated', 'ringing', 'answered', 'completed']);
      expect(form.Record).toEqual(['true']);
      expect(form.MachineDetection).toEqual(['Enable']);
      expect(form.AsyncAmd).toEqual(['true']);
      expect(form.AsyncAmdStatusCallback[0]).toBe(`${gateway}/callbacks/carrier_b/${id}/amd`);
      const request = fake.requests.find((r) => new URLSearchParams(r.body).get('To') === '+14155561001')!;
      expect(request.authorization).toBe(`Basic ${Buffer.from(`${B.id}:${B.token}`).toString('base64')}`);
      expect(await getCall(id)).toMatchObject({
        status: 'pending',
        provider: 'carrier_b',
        from_number: B_FROM,
      });
    });

    it('follows signed callbacks, answers the voice URL with a media stream, ignores late and repeated ones', async () => {
      const { id, placed } = await start(B_FROM, '+14155561002');
      const seq = (n: number) => ({ SequenceNumber: String(n) });
      expect((await fake.callbackB(placed, { CallStatus: 'initiated', ...seq(0) })).status).toBe(200);
      expect((await getCall(id)).status).toBe('pending');
      expect((await fake.callbackB(placed, { CallStatus: 'ringing', ...seq(1) })).status).toBe(200);
      expect((await getCall(id)).status).toBe('ringing');

      const answer = await fake.callbackB(
        placed,
        { CallStatus: 'in-progress', AnsweredBy: 'human' },
        { target: 'answer' },
      );
      expect(answer.status).toBe(200);
      expect(answer.contentType).toContain('xml');
      expectStream(answer.body, 'carrier_b', id);
      expect(await getCall(id)).toMatchObject({ status: 'in_progress', answered_by: 'human' });

      // The "answered" progress event repeats in-progress, and a late "ringing" arrives: neither moves the call.
      expect((await fake.callbackB(placed, { CallStatus: 'in-progress', ...seq(2) })).status).toBe(200);
      expect((await fake.callbackB(placed, { CallStatus: 'ringing', ...seq(1) })).status).toBe(200);
      expect((await getCall(id)).status).toBe('in_progress');

      const done = { CallStatus: 'completed', CallDuration: '42', ...seq(3) };
      expect((await fake.callbackB(placed, done)).status).toBe(200);
      const completed = await callOnly(id);
      expect(completed).toMatchObject({ status: 'completed', duration_seconds: 42 });
      const stored = await carrierEvents(id);
      expect((await fake.callbackB(placed, done)).status).toBe(200);
      expect(await callOnly(id)).toEqual(completed);
      expect(await carrierEvents(id)).toBe(stored);
    });

    it('refuses unsigned and wrongly signed callbacks with 403 and stores nothing', async () => {
      const { id, placed } = await start(B_FROM, '+14155561003');
      const before = await carrierEvents(id);
      for (const sign of ['bad', 'none'] as const) {
        const res = await fake.callbackB(placed, { CallStatus: 'ringing' }, { sign });
        expect(res.status).toBe(403);
        expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      }
      // Signed for other parameters than the ones sent: a tampered body.
      const url = placed.urls.status;
      const tampered = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': signCarrierB(B.token, url, {
            CallSid: placed.providerCallId,
            CallStatus: 'ringing',
          }),
        },
        body: new URLSearchParams({ CallSid: placed.providerCallId, CallStatus: 'completed' }).toString(),
      });
      expect(tampered.status).toBe(403);
      expect(await carrierEvents(id)).toBe(before);
      expect((await getCall(id)).status).toBe('pending');
    });

    it('answers 404 to a signed callback on an event URL it never handed out, and stores nothing', async () => {
      const { id, placed } = await start(B_FROM, '+14155561004');
      const before = await carrierEvents(id);
      const url = placed.urls.status.replace(/\/status$/, '/bogus');
      const params = { CallSid: placed.providerCallId, CallStatus: 'completed', CallDuration: '9' };
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': signCarrierB(B.token, url, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      expect(await carrierEvents(id)).toBe(before);
      expect((await getCall(id)).status).toBe('pending');
    });

    it.each([
      ['busy', 'busy'],
      ['no-answer', 'no_answer'],
      ['canceled', 'canceled'],
      ['failed', 'failed'],
    ])('normalizes a final %s to %s', async (raw, status) => {
      const { id, placed } = await start(
        B_FROM,
        `+1415556${String(Math.floor(Math.random() * 9000) + 1000)}`,
      );
      expect((await fake.callbackB(placed, { CallStatus: raw })).status).toBe(200);
      expect((await getCall(id)).status).toBe(status);
    });
  });

  describe('carrier_a', () => {
    it('places the call as JSON with Basic auth and our answer, ring and hangup URLs', async () => {
      const { id, placed } = await start(A_FROM, '+919812301001');
      expect(placed.json).toMatchObject({
        from: A_FROM,
        to: '+919812301001',
        answer_url: `${gateway}/callbacks/carrier_a/${id}/answer`,
        ring_url: `${gateway}/callbacks/carrier_a/${id}/ring`,
        hangup_url: `${gateway}/callbacks/carrier_a/${id}/hangup`,
        machine_detection: 'true',
        machine_detection_url: `${gateway}/callbacks/carrier_a/${id}/machine`,
      });
      expect(await getCall(id)).toMatchObject({ status: 'pending', provider: 'carrier_a' });
    });

    it('follows signed V3 callbacks, keeps a hangup that overtook the answer, and reads hangup details', async () => {
      const { id, placed } = await start(A_FROM, '+919812301002');
      expect((await fake.callbackA(placed, 'ring', { CallStatus: 'ringing' })).status).toBe(200);
      expect((await getCall(id)).status).toBe('ringing');
      const hangup = {
        CallStatus: 'completed',
        Duration: '30',
        BillDuration: '60',
        HangupCause: 'NORMAL_CLEARING',
        HangupCauseName: 'Normal Hangup',
        HangupSource: 'Callee',
      };
      expect((await fake.callbackA(placed, 'hangup', hangup)).status).toBe(200);
      const answer = await fake.callbackA(placed, 'answer', { CallStatus: 'in-progress' });
      expect(answer.status).toBe(200);
      expectStream(answer.body, 'carrier_a', id);
      const after = await callOnly(id);
      expect(after).toMatchObject({
        status: 'completed',
        duration_seconds: 30,
        bill_duration_seconds: 60,
        hangup_cause: 'Normal Hangup',
        hangup_source: 'callee',
      });
      const stored = await carrierEvents(id);
      expect((await fake.callbackA(placed, 'hangup', hangup)).status).toBe(200);
      expect(await carrierEvents(id)).toBe(stored);
      expect(await callOnly(id)).toEqual(after);
    });

    it('refuses unsigned and wrongly signed callbacks with 403 and stores nothing', async () => {
      const { id, placed } = await start(A_FROM, '+919812301003');
      for (const sign of ['bad', 'none'] as const) {
        expect((await fake.callbackA(placed, 'ring', { CallStatus: 'ringing' }, sign)).status).toBe(403);
      }
      expect(await carrierEvents(id)).toBe(0);
      expect((await getCall(id)).status).toBe('pending');
    });

    it.each([
      ['busy', 'busy'],
      ['no-answer', 'no_answer'],
      ['timeout', 'failed'],
      ['failed', 'failed'],
    ])('normalizes a hangup with %s to %s', async (raw, status) => {
      const { id, placed } = await start(
        A_FROM,
        `+9198123${String(Math.floor(Math.random() * 90000) + 10000)}`,
      );
      expect((await fake.callbackA(placed, 'hangup', { CallStatus: raw })).status).toBe(200);
      expect((await getCall(id)).status).toBe(status);
    });
  });

  describe('placement failures', () => {
    it('answers 502 when the carrier refuses and marks the call failed', async () => {
      // A clear refusal (4xx); a server error leaves the placement to be looked up (calls-placement-unknown).
      fake.failNext(400);
      const res = await call('/calls/start', {
        body: { agent_id: agentId, to_number: '+14155569001', from_number: B_FROM },
      });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('INTERNAL_ERROR');
      const list = await call('/calls?limit=100');
      const failed = list.body.data.calls.find((c: { to_number: string }) => c.to_number === '+14155569001');
      expect(failed).toMatchObject({ status: 'failed', provider: 'carrier_b' });
    });
  });

  describe('phone numbers on carrier applications', () => {
    it.each([
      ['carrier_b', '+14155567001', (n: string) => `carrier_b:PN${n.replace(/\D/g, '')}`],
      ['carrier_a', '+919812307001', (n: string) => `carrier_a:${n.slice(1)}`],
    ])(
      'detaches a %s number from its application before deleting it',
      async (provider, number, detachedAs) => {
        const imported = await call('/phone-numbers', {
          body: { number, provider, application_id: 'APP0001' },
        });
        expect(imported.status).toBe(200);
        const res = await call(`/phone-numbers/${imported.body.data.id}`, { method: 'DELETE' });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ deleted: true, detached: true });
        expect(fake.detached).toContain(detachedAs(number));
      },
    );

    it('still deletes when the carrier fails to detach (best effort)', async () => {
      const imported = await call('/phone-numbers', {
        body: { number: '+14155567002', provider: 'carrier_b', application_id: 'APP0002' },
      });
      fake.failNext(503);
      const res = await call(`/phone-numbers/${imported.body.data.id}`, { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ deleted: true, detached: false });
      expect((await call(`/phone-numbers/${imported.body.data.id}`)).status).toBe(404);
    });
  });

  describe('inbound calls', () => {
    const INBOUND_B = '+14155568001';
    const INBOUND_A = '+919812308001';
    let inboundUrlB: string;
    let inboundUrlA: string;

    beforeAll(async () => {
      expect(
        (
          await call('/phone-numbers', {
            body: { number: INBOUND_B, provider: 'carrier_b', agent_id: agentId },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call('/phone-numbers', {
            body: { number: INBOUND_A, provider: 'carrier_a', agent_id: agentId },
          })
        ).status,
      ).toBe(200);
      const connections = (await call('/config/telephony')).body.data.connections as {
        provider: string;
        inbound_webhook_url: string;
      }[];
      inboundUrlB = connections.find((c) => c.provider === 'carrier_b')!.inbound_webhook_url;
      inboundUrlA = connections.find((c) => c.provider === 'carrier_a')!.inbound_webhook_url;
      expect(inboundUrlB).toMatch(new RegExp(`^${gateway}/callbacks/inbound/carrier_b/[0-9a-f-]{36}/voice$`));
    });

    const inboundB = (sid: string, sign: 'good' | 'bad' | 'none' = 'good') =>
      fake.post(
        B,
        inboundUrlB,
        {
          CallSid: sid,
          AccountSid: B.id,
          From: '+919800000009',
          To: INBOUND_B,
          Direction: 'inbound',
          CallStatus: 'ringing',
        },
        sign,
      );
    const decisions = async () =>
      (await call('/inbound-route-decisions?limit=100')).body.data.decisions as Record<string, unknown>[];

    it('routes an unknown CallSid with Direction inbound, streams it to the agent and tracks the call', async () => {
      const tap = await EventTap.open(own.prefix);
      const res = await inboundB('CAinbound0001');
      expect(res.status).toBe(200);
      const decided = (await decisions()).find((d) => d.provider_call_id === 'CAinbound0001')!;
      const stream = expectStream(res.body, 'carrier_b', decided.call_id as string);
      expect(decided).toMatchObject({
        provider: 'carrier_b',
        action: 'ANSWER_WITH_AI',
        source: 'no_policy',
        agent_id: agentId,
        to_number: INBOUND_B,
        call_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(await getCall(decided.call_id as string)).toMatchObject({
        direction: 'inbound',
        status: 'in_progress',
        provider: 'carrier_b',
        from_number: '+919800000009',
        to_number: INBOUND_B,
        agent_id: agentId,
        session_id: decided.session_id,
      });

      // The carrier retrying its webhook gets the same markup (with a fresh single-use token); nothing is
      // routed or opened twice.
      const retried = await inboundB('CAinbound0001');
      const again = expectStream(retried.body, 'carrier_b', decided.call_id as string);
      expect(again.token).not.toBe(stream.token);
      expect(retried.body.replace(again.token, stream.token)).toBe(res.body);
      expect((await decisions()).filter((d) => d.provider_call_id === 'CAinbound0001')).toHaveLength(1);

      // Its status callback on the same URL ends the call like any other.
      const done = await fake.post(B, inboundUrlB, {
        CallSid: 'CAinbound0001',
        AccountSid: B.id,
        From: '+919800000009',
        To: INBOUND_B,
        Direction: 'inbound',
        CallStatus: 'completed',
        CallDuration: '17',
      });
      expect(done.status).toBe(200);
      expect(await getCall(decided.call_id as string)).toMatchObject({
        status: 'completed',
        duration_seconds: 17,
      });

      // Its events report the account's concurrency limit, as an outbound call's do.
      const callId = decided.call_id as string;
      await tap.waitFor(() => tap.statuses(callId).includes('completed'), 15_000, 'the completed event');
      try {
        const reported = tap.of(callId, 'events.call.status_updated').map((e) => e.data.account_concurrency);
        expect(reported.length).toBeGreaterThanOrEqual(3);
        // Calls of earlier tests may still be active on the account.
        for (const concurrency of reported) {
          const { active } = concurrency as { active: number };
          expect(concurrency).toEqual({ limit: 50, active, remaining: 50 - active });
        }
      } finally {
        await tap.close();
      }
    });

    it('tracks a carrier_a inbound call to its hangup', async () => {
      const params = {
        CallUUID: 'a-inbound-track-1',
        From: '919800000011',
        To: INBOUND_A.slice(1),
        Direction: 'inbound',
      };
      const res = await fake.post(A, inboundUrlA, { ...params, CallStatus: 'ringing' });
      expect(res.status).toBe(200);
      const decided = (await decisions()).find((d) => d.provider_call_id === 'a-inbound-track-1')!;
      expectStream(res.body, 'carrier_a', decided.call_id as string);
      expect(await getCall(decided.call_id as string)).toMatchObject({
        direction: 'inbound',
        status: 'in_progress',
        from_number: '+919800000011',
      });
      const hangup = await fake.post(A, inboundUrlA, {
        ...params,
        CallStatus: 'completed',
        Duration: '9',
        HangupSource: 'Caller',
      });
      expect(hangup.status).toBe(200);
      expect(await getCall(decided.call_id as string)).toMatchObject({
        status: 'completed',
        duration_seconds: 9,
        hangup_source: 'caller',
      });
    });

    it('answers 404 for a number that is not the account’s, and records nothing', async () => {
      const res = await fake.post(B, inboundUrlB, {
        CallSid: 'CAinbound0099',
        AccountSid: B.id,
        From: '+919800000009',
        To: '+14155569999',
        Direction: 'inbound',
      });
      expect(res.status).toBe(404);
      expect((await decisions()).some((d) => d.provider_call_id === 'CAinbound0099')).toBe(false);
      const unknownConnection = inboundUrlB.replace(
        /[0-9a-f-]{36}(?=\/voice$)/,
        '00000000-0000-4000-8000-000000000000',
      );
      expect(
        (
          await fake.post(B, unknownConnection, {
            CallSid: 'CAinbound0098',
            From: '+1',
            To: INBOUND_B,
            Direction: 'inbound',
          })
        ).status,
      ).toBe(404);
    });

    it('refuses an unsigned or wrongly signed inbound webhook with 403 and records nothing', async () => {
      expect((await inboundB('CAinbound0002', 'bad')).status).toBe(403);
      expect((await inboundB('CAinbound0002', 'none')).status).toBe(403);
      expect((await decisions()).some((d) => d.provider_call_id === 'CAinbound0002')).toBe(false);
    });

    it('carries out the partner’s decision in carrier markup', async () => {
      const policy = await call('/inbound-route-policies', {
        body: {
          scope: 'PARTNER',
          webhook_url: `${decision.url}/route`,
          webhook_secret: 'carrier-decision-secret-1',
          timeout_ms: 2000,
        },
      });
      expect(policy.status).toBe(200);
      decision.answerWith({ body: { action: 'TRANSFER', to_number: '+919811112222' } });
      expect((await inboundB('CAinbound0003')).body).toContain('<Dial>+919811112222</Dial>');
      decision.answerWith({ body: { action: 'REJECT' } });
      expect((await inboundB('CAinbound0004')).body).toContain('<Reject');
      const a = await fake.post(A, inboundUrlA, {
        CallUUID: 'a-inbound-0001',
        From: '919800000010',
        To: INBOUND_A.slice(1),
        Direction: 'inbound',
      });
      expect(a.status).toBe(200);
      expect(a.body).toContain('<Hangup reason="rejected"/>');
      await waitFor(async () => (await decisions()).find((d) => d.provider_call_id === 'a-inbound-0001'), {
        description: 'the carrier_a decision',
      });
      expect(decision.requests.at(-1)?.json).toMatchObject({
        provider: 'carrier_a',
        call: { from_number: '+919800000010', to_number: INBOUND_A },
      });
    });

    it('never lets another account’s webhook with a forged carrier call id answer or reveal this account’s call', async () => {
      // This account's outbound call, still pending at the carrier.
      const { id, placed } = await start(B_FROM, '+14155561009');
      expect((await getCall(id)).status).toBe('pending');

      // Another account with its own carrier_b connection and number signs a webhook with that call's id.
      const other = await adminApi('/partners', {
        method: 'POST',
        baseUrl: gateway,
        body: { name: 'Forging Co', balance_inr: 100 },
      });
      const otherKey = other.body.data.api_key as string;
      const asOther = (path: string, options: { method?: string; body?: unknown } = {}) =>
        api(path, { ...options, key: otherKey, baseUrl: gateway });
      const forger: CarrierAccount = {
        provider: 'carrier_b',
        id: 'ACfake00000000000000000000000000f9',
        token: 'forging-carrier-b-token-01',
      };
      const otherAgent = (await createTestAgent(otherKey, { intro_message: 'Forged hello' }, gateway)).id;
      expect(
        (
          await asOther('/config/telephony/carrier_b', {
            method: 'PUT',
            body: { account_sid: forger.id, auth_token: forger.token, from_number: '+14155569001' },
          })
        ).status,
      ).toBe(200);
      const number = '+14155569002';
      expect(
        (await asOther('/phone-numbers', { body: { number, provider: 'carrier_b', agent_id: otherAgent } }))
          .status,
      ).toBe(200);
      const url = (
        (await asOther('/config/telephony')).body.data.connections as { inbound_webhook_url: string }[]
      )[0].inbound_webhook_url;

      const forged = await fake.post(forger, url, {
        CallSid: placed.providerCallId,
        AccountSid: forger.id,
        From: '+919800000077',
        To: number,
        Direction: 'inbound',
        CallStatus: 'ringing',
      });
      expect(forged.status).toBe(409);
      expect(forged.body).not.toContain(id);
      // The first account's call is untouched, and the forger sees no call.
      expect(await getCall(id)).toMatchObject({ status: 'pending', direction: 'outbound' });
      expect((await asOther('/calls')).body.data.calls).toEqual([]);
    });
  });
});
