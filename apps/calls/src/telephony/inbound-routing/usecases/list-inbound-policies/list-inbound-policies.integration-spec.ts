// The partner's inbound routing policies in the running calls module, oldest first with the numbers they
// route; another partner's policies never appear.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('list inbound routing policies', () => {
  const calls = useIntegrationApp(() => startCalls());

  /** A number imported on a carrier_b connection of the partner. */
  async function ownNumber(partnerId: string, number: string) {
    const connectionId = await saveConnection(calls.get(DataSource), partnerId, 'carrier_b');
    return calls.send('calls.phone_number.import', partnerId, { number, connection_id: connectionId });
  }

  it("lists the partner's policies oldest first, with their numbers", async () => {
    const partnerId = randomUUID();
    const number = await ownNumber(partnerId, '+14155590001');
    const webhook_url = 'https://partner.example/route';
    const byNumber = await calls.send('calls.inbound_policy.create', partnerId, {
      scope: 'PHONE_NUMBER',
      phone_number_id: number.id,
      webhook_url,
    });
    const account = await calls.send('calls.inbound_policy.create', partnerId, {
      scope: 'PARTNER',
      webhook_url,
    });
    await calls.send('calls.inbound_policy.create', randomUUID(), { scope: 'PARTNER', webhook_url });

    const { policies } = await calls.send('calls.inbound_policy.list', partnerId, {} as never);
    expect(policies).toEqual([byNumber, account]);
    expect(policies[0].phone_number).toEqual({ id: number.id, number: '+14155590001' });
  });
});
