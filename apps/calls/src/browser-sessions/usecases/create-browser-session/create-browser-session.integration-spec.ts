// calls.browser_session.create (and calls.test_session.create, the campaigns test runner's) as the gateway sends
// it for a partner to the running calls module: the agent is asked of the agents service (a fake peer), the
// session is admitted as a call is and stored as a browser call with its one-time access. A partner that may not
// call, cannot pay for 30 seconds, or has no free slot is refused, and so is an agent the agents service refuses.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '@vap/messages';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../../../config/calls.config';
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
    const before = Date.now();

    const created = await createBrowserSession(calls, partner, {
      agent_id: agentId,
      metadata: { order: '42' },
      variables: { customer_name: 'Asha' },
    });

    expect(created).toMatchObject({
      agent_id: agentId,
      status: 'pending',
      end_reason: null,
      allowed_origins: [SPEC_ORIGIN],
      metadata: { order: '42' },
      variables: { customer_name: 'Asha' },
      last_refusal: null,
      access_token: expect.any(String),
      connect_url: expect.stringContaining(created.id),
    });
    const expiresAt = Date.parse(created.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + TTL_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + TTL_MS + 1000);
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
      allowed_origins: [SPEC_ORIGIN],
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
