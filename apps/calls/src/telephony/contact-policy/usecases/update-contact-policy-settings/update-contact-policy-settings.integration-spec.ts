// Changing the contact policy settings in the running calls module: fields given change, fields left out
// stay, null clears; the settings are stored and published for campaigns; a calling window that does not
// resolve, or a cap out of range, is refused with nothing stored.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ContactPolicySettingsDto } from '@vap/api';
import { DomainEvents, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('update the contact policy settings', () => {
  const calls = useIntegrationApp(() => startCalls());

  it('merges the changes into what is stored, publishes them, and clears with null', async () => {
    const partnerId = randomUUID();
    const set = await calls.send('calls.contact_policy.settings_update', partnerId, {
      calling_window: { preset: 'US' },
      max_attempts_per_day: 3,
    });
    expect(set).toEqual({
      calling_window: {
        preset: 'US',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        start: '08:00',
        end: '21:00',
        timezone: 'America/New_York',
      },
      windows_apply_to_single_calls: false,
      max_attempts_per_day: 3,
      max_attempts_per_7_days: null,
      updated_at: expect.any(String),
    });
    const published = await calls.waitForEvent<ContactPolicySettingsDto>(
      DomainEvents.contactPolicySettingsUpdated,
      (e) => e.partnerId === partnerId,
    );
    expect(published.data).toEqual(set);

    const more = await calls.send('calls.contact_policy.settings_update', partnerId, {
      max_attempts_per_7_days: 10,
      calling_window: null,
    });
    expect(more).toMatchObject({
      calling_window: null,
      max_attempts_per_day: 3,
      max_attempts_per_7_days: 10,
    });
    const [row] = (await calls.get(DataSource).query(
      `SELECT calling_window, max_attempts_per_day, max_attempts_per_7_days FROM calls.contact_policy_settings
          WHERE partner_id = $1`,
      [partnerId],
    )) as Record<string, unknown>[];
    expect(row).toEqual({ calling_window: null, max_attempts_per_day: 3, max_attempts_per_7_days: 10 });
  });

  it('refuses a cap out of range and a window with an unknown time zone, storing nothing', async () => {
    const partnerId = randomUUID();
    await expect(
      calls.send('calls.contact_policy.settings_update', partnerId, { max_attempts_per_day: 0 }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(
      calls.send('calls.contact_policy.settings_update', partnerId, {
        calling_window: { days: ['mon'], start: '09:00', end: '17:00', timezone: 'Mars/Olympus' },
      }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    const rows = (await calls
      .get(DataSource)
      .query(`SELECT 1 FROM calls.contact_policy_settings WHERE partner_id = $1`, [partnerId])) as unknown[];
    expect(rows).toEqual([]);
  });
});
