// The recorded inbound routing decisions in the running calls module: the partner's, oldest first, paged and
// filtered by number, policy, action, source and time; another partner's never appear, and a time that does
// not parse is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { InboundRouteDecision } from '../../entities/inbound-route-decision.entity';

describe('list inbound routing decisions', () => {
  const calls = useIntegrationApp(() => startCalls());

  /** A decision the router recorded at `createdAt`. */
  async function saveDecision(
    partnerId: string,
    createdAt: string,
    fields: Partial<InboundRouteDecision> = {},
  ): Promise<string> {
    const id = randomUUID();
    await calls
      .get(DataSource)
      .getRepository(InboundRouteDecision)
      .insert({
        id,
        partnerId,
        policyId: null,
        policyScope: null,
        phoneNumberId: null,
        provider: 'carrier_b',
        providerCallId: `CA${id}`,
        fromNumber: '+14155610001',
        toNumber: '+14155610002',
        action: 'ANSWER_WITH_AI',
        source: 'no_policy',
        createdAt: new Date(createdAt),
        ...fields,
      });
    return id;
  }

  it("pages the partner's decisions oldest first and filters them", async () => {
    const partnerId = randomUUID();
    const first = await saveDecision(partnerId, '2027-02-01T10:00:00Z');
    const second = await saveDecision(partnerId, '2027-02-02T10:00:00Z', {
      policyId: 'irp_1',
      policyScope: 'PHONE_NUMBER',
      phoneNumberId: 'pn_1',
      action: 'REJECT',
      source: 'webhook',
      webhookStatus: 200,
      webhookLatencyMs: 35,
    });
    const third = await saveDecision(partnerId, '2027-02-03T10:00:00Z', { source: 'failure_action' });
    await saveDecision(randomUUID(), '2027-02-02T12:00:00Z');

    const page1 = await calls.send('calls.inbound_decision.list', partnerId, { limit: 2 });
    const page2 = await calls.send('calls.inbound_decision.list', partnerId, {
      limit: 2,
      cursor: page1.next_cursor!,
    });
    expect([...page1.decisions, ...page2.decisions].map((d) => d.id)).toEqual([first, second, third]);
    expect(page2.next_cursor).toBeNull();
    expect(page1.decisions[1]).toMatchObject({
      policy_id: 'irp_1',
      policy_scope: 'PHONE_NUMBER',
      phone_number_id: 'pn_1',
      action: 'REJECT',
      source: 'webhook',
      webhook_status: 200,
      webhook_latency_ms: 35,
      created_at: '2027-02-02T10:00:00.000Z',
    });

    const ids = async (query: object) =>
      (await calls.send('calls.inbound_decision.list', partnerId, query)).decisions.map((d) => d.id);
    expect(await ids({ policy_id: 'irp_1' })).toEqual([second]);
    expect(await ids({ action: 'ANSWER_WITH_AI' })).toEqual([first, third]);
    expect(await ids({ source: 'failure_action' })).toEqual([third]);
    expect(await ids({ from: '2027-02-01T12:00:00Z', to: '2027-02-03T00:00:00Z' })).toEqual([second]);
  });

  it('refuses a time that does not parse', async () => {
    await expect(
      calls.send('calls.inbound_decision.list', randomUUID(), { from: '2027-13-45Tnope' }),
    ).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      message: expect.stringContaining('from must be an ISO 8601 date-time'),
    });
  });
});
