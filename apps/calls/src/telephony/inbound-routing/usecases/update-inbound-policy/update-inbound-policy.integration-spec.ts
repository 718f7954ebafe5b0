// Changing an inbound routing policy in the running calls module: its fields change and are stored, the
// webhook secret is sealed or removed with null; another partner's policy is 404 and stays as it was.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('update an inbound routing policy', () => {
  const calls = useIntegrationApp(() => startCalls());

  const rowOf = async (id: string) =>
    (
      (await calls.get(DataSource).query(
        `SELECT name, enabled, webhook_url, webhook_secret_sealed IS NOT NULL AS sealed, timeout_ms
             FROM calls.inbound_route_policies WHERE id = $1`,
        [id],
      )) as Record<string, unknown>[]
    )[0];

  it('stores the changes, seals a new secret and removes it with null', async () => {
    const partnerId = randomUUID();
    const policy = await calls.send('calls.inbound_policy.create', partnerId, {
      scope: 'PARTNER',
      webhook_url: 'https://partner.example/route',
    });

    const updated = await calls.send('calls.inbound_policy.update', partnerId, {
      id: policy.id,
      changes: {
        name: 'Night routing',
        enabled: false,
        webhook_url: 'https://partner.example/night',
        webhook_secret: 'a-secret-of-twenty-chars',
        timeout_ms: 2000,
        failure_action: 'REJECT',
        allowed_actions: ['ANSWER_WITH_AI', 'REJECT'],
      },
    });
    expect(updated).toMatchObject({
      id: policy.id,
      scope: 'PARTNER',
      name: 'Night routing',
      enabled: false,
      webhook_url: 'https://partner.example/night',
      has_webhook_secret: true,
      timeout_ms: 2000,
      failure_action: 'REJECT',
      allowed_actions: ['ANSWER_WITH_AI', 'REJECT'],
    });
    expect(await rowOf(policy.id)).toEqual({
      name: 'Night routing',
      enabled: false,
      webhook_url: 'https://partner.example/night',
      sealed: true,
      timeout_ms: 2000,
    });

    await calls.send('calls.inbound_policy.update', partnerId, {
      id: policy.id,
      changes: { webhook_secret: null },
    });
    expect(await rowOf(policy.id)).toMatchObject({ sealed: false });
  });

  it("refuses another partner's policy with 404, changing nothing", async () => {
    const partnerId = randomUUID();
    const policy = await calls.send('calls.inbound_policy.create', partnerId, {
      scope: 'PARTNER',
      webhook_url: 'https://partner.example/route',
    });
    await expect(
      calls.send('calls.inbound_policy.update', randomUUID(), { id: policy.id, changes: { name: 'Taken' } }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await rowOf(policy.id)).toMatchObject({ name: 'Account default', enabled: true });
  });
});
