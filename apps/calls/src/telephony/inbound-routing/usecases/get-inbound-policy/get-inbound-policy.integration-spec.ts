// One inbound routing policy in the running calls module: the partner's own, with the number it routes;
// another partner's, or an id of none, is 404.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('get an inbound routing policy', () => {
  const calls = useIntegrationApp(() => startCalls());

  /** A number imported on a carrier_b connection of the partner. */
  async function ownNumber(partnerId: string, number: string) {
    const connectionId = await saveConnection(calls.get(DataSource), partnerId, 'carrier_b');
    return calls.send('calls.phone_number.import', partnerId, { number, connection_id: connectionId });
  }

  it("answers the partner's policy, and 404 to another partner or an unknown id", async () => {
    const partnerId = randomUUID();
    const number = await ownNumber(partnerId, '+14155600001');
    const policy = await calls.send('calls.inbound_policy.create', partnerId, {
      scope: 'PHONE_NUMBER',
      phone_number_id: number.id,
      webhook_url: 'https://partner.example/route',
    });
    await expect(calls.send('calls.inbound_policy.get', partnerId, { id: policy.id })).resolves.toEqual(
      policy,
    );
    await expect(
      calls.send('calls.inbound_policy.get', randomUUID(), { id: policy.id }),
    ).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
      message: 'Inbound route policy not found',
    });
    await expect(
      calls.send('calls.inbound_policy.get', partnerId, { id: `irp_${randomUUID()}` }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });
});
