// Deleting an inbound routing policy in the running calls module: the policy goes; another partner's policy
// is 404 and stays.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('delete an inbound routing policy', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("deletes the partner's policy, and 404 to another partner", async () => {
    const partnerId = randomUUID();
    const policy = await calls.send('calls.inbound_policy.create', partnerId, {
      scope: 'PARTNER',
      webhook_url: 'https://partner.example/route',
    });
    await expect(
      calls.send('calls.inbound_policy.delete', randomUUID(), { id: policy.id }),
    ).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
      message: 'Inbound route policy not found',
    });
    await expect(calls.send('calls.inbound_policy.get', partnerId, { id: policy.id })).resolves.toEqual(
      policy,
    );

    await expect(calls.send('calls.inbound_policy.delete', partnerId, { id: policy.id })).resolves.toEqual({
      id: policy.id,
      deleted: true,
    });
    await expect(calls.send('calls.inbound_policy.list', partnerId, {} as never)).resolves.toEqual({
      policies: [],
    });
  });
});
