// The account's contact policy settings in the running calls module: empty until set, then as stored, and
// each account's own.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('get the contact policy settings', () => {
  const calls = useIntegrationApp(() => startCalls());

  it('answers the empty settings until the account sets them, then the stored ones', async () => {
    const partnerId = randomUUID();
    const empty = {
      calling_window: null,
      windows_apply_to_single_calls: false,
      max_attempts_per_day: null,
      max_attempts_per_7_days: null,
      updated_at: null,
    };
    await expect(calls.send('calls.contact_policy.settings_get', partnerId, {} as never)).resolves.toEqual(
      empty,
    );

    await calls.get(DataSource).query(
      `INSERT INTO calls.contact_policy_settings (partner_id, max_attempts_per_day, updated_at)
         VALUES ($1, 4, '2027-01-01T00:00:00Z')`,
      [partnerId],
    );
    await expect(calls.send('calls.contact_policy.settings_get', partnerId, {} as never)).resolves.toEqual({
      ...empty,
      max_attempts_per_day: 4,
      updated_at: '2027-01-01T00:00:00.000Z',
    });
    await expect(calls.send('calls.contact_policy.settings_get', randomUUID(), {} as never)).resolves.toEqual(
      empty,
    );
  });
});
