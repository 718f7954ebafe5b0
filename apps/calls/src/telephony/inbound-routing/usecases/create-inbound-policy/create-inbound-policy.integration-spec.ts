// Creating an inbound routing policy in the running calls module: the agents service is a fake peer that
// knows the partner's own agents. The policy is stored with its defaults and its webhook secret sealed; a
// second policy of one target is 409, another partner's number or agent is 404, and a target of another scope
// is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { INBOUND_ROUTE_ACTIONS, INBOUND_TIMEOUT_MS } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('create an inbound routing policy', () => {
  const ownAgents = new Map<string, string>();

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    calls.peers.answer('agents.agent.get', ({ id }, { partnerId }) => {
      if (ownAgents.get(id) !== partnerId) throw AppError.notFound('Agent');
      return { id } as never;
    });
  });

  /** A number imported on a carrier_b connection of the partner. */
  async function ownNumber(partnerId: string, number: string) {
    const connectionId = await saveConnection(calls.get(DataSource), partnerId, 'carrier_b');
    return calls.send('calls.phone_number.import', partnerId, { number, connection_id: connectionId });
  }

  it('stores a number policy with its defaults and a sealed secret', async () => {
    const partnerId = randomUUID();
    const number = await ownNumber(partnerId, '+14155580001');

    const policy = await calls.send('calls.inbound_policy.create', partnerId, {
      scope: 'PHONE_NUMBER',
      phone_number_id: number.id,
      webhook_url: 'https://partner.example/route',
      webhook_secret: 'a-secret-of-twenty-chars',
    });

    expect(policy).toMatchObject({
      id: expect.stringMatching(/^irp_/),
      scope: 'PHONE_NUMBER',
      phone_number_id: number.id,
      phone_number: { id: number.id, number: '+14155580001' },
      agent_id: null,
      name: 'Number +14155580001',
      enabled: true,
      has_webhook_secret: true,
      timeout_ms: INBOUND_TIMEOUT_MS.default,
      failure_action: 'ANSWER_WITH_AI',
      allowed_actions: [...INBOUND_ROUTE_ACTIONS],
    });
    const [row] = (await calls
      .get(DataSource)
      .query(`SELECT partner_id, webhook_secret_sealed FROM calls.inbound_route_policies WHERE id = $1`, [
        policy.id,
      ])) as { partner_id: string; webhook_secret_sealed: string }[];
    expect(row.partner_id).toBe(partnerId);
    expect(row.webhook_secret_sealed).not.toContain('a-secret-of-twenty-chars');
  });

  it('stores an agent policy and an account policy, and refuses a second one of a target (409)', async () => {
    const partnerId = randomUUID();
    const agentId = randomUUID();
    ownAgents.set(agentId, partnerId);
    await expect(
      calls.send('calls.inbound_policy.create', partnerId, {
        scope: 'AGENT',
        agent_id: agentId,
        webhook_url: 'https://partner.example/route',
      }),
    ).resolves.toMatchObject({ scope: 'AGENT', agent_id: agentId, name: `Agent ${agentId}` });
    await expect(
      calls.send('calls.inbound_policy.create', partnerId, {
        scope: 'PARTNER',
        webhook_url: 'https://partner.example/route',
        failure_action: 'REJECT',
      }),
    ).resolves.toMatchObject({ scope: 'PARTNER', name: 'Account default', failure_action: 'REJECT' });
    await expect(
      calls.send('calls.inbound_policy.create', partnerId, {
        scope: 'PARTNER',
        webhook_url: 'https://partner.example/other',
      }),
    ).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      message: 'A PARTNER policy for this account already exists',
    });
  });

  it("refuses another partner's number or agent (404) and a target of another scope", async () => {
    const partnerId = randomUUID();
    const othersNumber = await ownNumber(randomUUID(), '+14155580002');
    const othersAgent = randomUUID();
    ownAgents.set(othersAgent, randomUUID());
    const webhook_url = 'https://partner.example/route';

    await expect(
      calls.send('calls.inbound_policy.create', partnerId, {
        scope: 'PHONE_NUMBER',
        phone_number_id: othersNumber.id,
        webhook_url,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'Phone number not found' });
    await expect(
      calls.send('calls.inbound_policy.create', partnerId, {
        scope: 'AGENT',
        agent_id: othersAgent,
        webhook_url,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(
      calls.send('calls.inbound_policy.create', partnerId, {
        scope: 'PARTNER',
        agent_id: othersAgent,
        webhook_url,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(
      calls.send('calls.inbound_policy.create', partnerId, {
        scope: 'PARTNER',
        webhook_url: 'http://plain.example',
      }),
    ).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Invalid request: webhook_url must be an HTTPS URL',
    });
    await expect(calls.send('calls.inbound_policy.list', partnerId, {} as never)).resolves.toEqual({
      policies: [],
    });
  });
});
