// calls.browser_session.create (and calls.test_session.create, the campaigns test runner's) as the gateway sends
// it for a partner to the running calls module: the agent is asked of the agents service (a fake peer), the
// session is admitted as a call is and stored as a browser call with its one-time access (a stream token the
// voice service verifies, in a connect URL on MEDIA_PUBLIC_URL). A partner that may not call, cannot pay for 30
// seconds, or has no free slot (shared with its calls) is refused, and so is an agent the agents service refuses.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { mediaWebSocketBase, verifyStreamToken } from '@vap/media';
import { AppError, ErrorCode, isUuid } from '@vap/messages';
import { mediaStreamTokenKey, parseSecretsKey } from '@vap/secrets';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../../../config/calls.config';
import { TelephonyConfig } from '../../../config/telephony.config';
import { startCalls } from '../../../testing/calls-integration';
import { createBrowserSession, SPEC_ORIGIN } from '../../../testing/browser-sessions';
import { answerAgents, approvedPartner, SPEC_SNAPSHOT } from '../../../testing/spec-partners';

const TTL_MS = 120_000;

describe('create a browser session', () => {
  let calls: IntegrationApp<CallsConfig>;
  let dataSource: DataSource;
  const projectId = randomUUID();

  beforeAll(async () => {
    calls = await startCalls({ env: { BROWSER_SESSION_TOKEN_TTL_MS: String(TTL_MS) } });
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers, projectId);
  });

  afterAll(() => calls?.stop());

  const rowOf = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT c.partner_id, c.agent_id, c.project_id, c.kind, c.provider, c.status, c.billing_rate,
                c.variables, c.agent_settings, b.allowed_origins, b.metadata, b.expired
           FROM calls.calls c JOIN calls.browser_sessions b ON b.call_id = c.id WHERE c.id = $1`,
        [id],
      )) as Record<string, unknown>[]
    )[0];

  it('admits the session with its agent, stores it as a browser call and answers its one-time access', async () => {
    const partner = approvedPartner();
    const agentId = randomUUID();
    const customerId = `cus_${randomUUID()}`;
    const origins = [SPEC_ORIGIN, 'http://localhost:5173'];
    const before = Date.now();

    const created = await createBrowserSession(calls, partner, {
      agent_id: agentId,
      allowed_origins: origins,
      metadata: { order: '42' },
      variables: { customer_name: 'Asha' },
      customer_id: customerId,
    });

    expect(created).toMatchObject({
      agent_id: agentId,
      status: 'pending',
      end_reason: null,
      started_at: null,
      ended_at: null,
      allowed_origins: origins,
      metadata: { order: '42' },
      variables: { customer_name: 'Asha' },
      customer_id: customerId,
      credits_used: 0,
      last_refusal: null,
      access_token: expect.any(String),
    });
    expect(isUuid(created.id)).toBe(true);
    const expiresAt = Date.parse(created.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + TTL_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + TTL_MS + 1000);
    // The browser opens MEDIA_PUBLIC_URL as a WebSocket, with the token the voice service verifies with the
    // key calls signs carrier streams with, bound to the session.
    const ws = mediaWebSocketBase(calls.get(CallsConfig).MEDIA_PUBLIC_URL);
    expect(created.connect_url).toBe(
      `${ws.protocol}//${ws.host}/browser/${created.id}?token=${encodeURIComponent(created.access_token)}`,
    );
    const key = mediaStreamTokenKey(parseSecretsKey(calls.get(TelephonyConfig).SECRETS_KEY));
    expect(verifyStreamToken(created.access_token, key, Date.now())).toMatchObject({
      ok: true,
      claims: { callId: created.id },
    });
    expect(calls.peers.received).toContainEqual({
      subject: 'agents.agent.for_call',
      partnerId: partner.id,
      data: { id: agentId },
    });
    expect(await rowOf(created.id)).toMatchObject({
      partner_id: partner.id,
      agent_id: agentId,
      project_id: projectId,
      kind: 'browser',
      provider: 'browser',
      status: 'pending',
      billing_rate: 'standard',
      variables: { customer_name: 'Asha' },
      agent_settings: expect.objectContaining({ prompt: SPEC_SNAPSHOT.prompt }),
      allowed_origins: origins,
      metadata: { order: '42' },
      expired: false,
    });
  });

  it('bills a test run’s session at the test rate', async () => {
    const created = await calls.send('calls.test_session.create', approvedPartner(), {
      agent_id: randomUUID(),
      allowed_origins: [SPEC_ORIGIN],
    });

    expect((await rowOf(created.id)).billing_rate).toBe('test');
  });

  it('tells a partner that cannot pay for 30 seconds that its balance is short', async () => {
    await expect(createBrowserSession(calls, approvedPartner({ balancePaise: 0 }))).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
      message: expect.stringMatching(/balance/i),
    });
  });

  it('refuses a partner that may not call or cannot pay for 30 seconds', async () => {
    for (const partner of [
      approvedPartner({ status: 'suspended' }),
      approvedPartner({ status: 'pending' }),
      approvedPartner({ balancePaise: 0 }),
    ]) {
      await expect(createBrowserSession(calls, partner)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
      const rows = (await dataSource.query(`SELECT id FROM calls.calls WHERE partner_id = $1`, [
        partner.id,
      ])) as unknown[];
      expect(rows).toEqual([]);
    }
  });

  it('holds a slot of the concurrency limit from create', async () => {
    const partner = approvedPartner({ concurrencyLimit: 1 });
    await createBrowserSession(calls, partner);

    await expect(createBrowserSession(calls, partner)).rejects.toMatchObject({
      code: ErrorCode.LIMIT_REACHED,
    });
  });

  it('admits no more sessions at once than the limit, and a call start finds the same slots taken', async () => {
    const partner = approvedPartner({ concurrencyLimit: 2 });
    const attempts = await Promise.allSettled(
      Array.from({ length: 4 }, () => createBrowserSession(calls, partner)),
    );

    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(2);
    const refused = attempts.flatMap((a) => (a.status === 'rejected' ? [a.reason as unknown] : []));
    expect(refused).toEqual([
      expect.objectContaining({
        code: ErrorCode.LIMIT_REACHED,
        message: expect.stringMatching(/concurrency/i),
      }),
      expect.objectContaining({
        code: ErrorCode.LIMIT_REACHED,
        message: expect.stringMatching(/concurrency/i),
      }),
    ]);
    await expect(
      calls.send('calls.call.start', partner, { agent_id: randomUUID(), to_number: '+919876500001' }),
    ).rejects.toMatchObject({ code: ErrorCode.LIMIT_REACHED });
  });

  it('refuses an agent the agents service does not know', async () => {
    const partner = approvedPartner();
    calls.peers.answer('agents.agent.for_call', () => {
      throw AppError.notFound('Agent');
    });
    try {
      await expect(createBrowserSession(calls, partner)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    } finally {
      answerAgents(calls.peers, projectId);
    }
  });
});
