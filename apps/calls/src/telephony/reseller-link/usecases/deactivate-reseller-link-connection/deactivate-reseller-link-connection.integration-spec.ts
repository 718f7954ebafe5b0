// Deactivating a reseller-link connection in the running calls module, as the operator API sends it: the
// connection is disabled and its row kept; another partner's connection, or a carrier connection, is 404.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('deactivate a reseller-link connection', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("disables the partner's connection, and 404 to another partner or a carrier connection", async () => {
    const partnerId = randomUUID();
    const created = await calls.send('calls.reseller_link.connection_create', partnerId, {
      api_base_url: 'https://reseller.example/api',
      api_key: 'reseller-key-000000000001',
    });
    await expect(
      calls.send('calls.reseller_link.connection_deactivate', randomUUID(), { connectionId: created.id }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'reseller-link connection not found' });
    const carrier = await saveConnection(calls.get(DataSource), partnerId, 'carrier_b');
    await expect(
      calls.send('calls.reseller_link.connection_deactivate', partnerId, { connectionId: carrier }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });

    const off = await calls.send('calls.reseller_link.connection_deactivate', partnerId, {
      connectionId: created.id,
    });
    expect(off).toMatchObject({
      id: created.id,
      status: 'disabled',
      api_base_url: 'https://reseller.example/api',
    });
    const rows = (await calls
      .get(DataSource)
      .query(`SELECT provider, status FROM calls.connections WHERE partner_id = $1 ORDER BY provider`, [
        partnerId,
      ])) as Record<string, string>[];
    expect(rows).toEqual([
      { provider: 'carrier_b', status: 'active' },
      { provider: 'reseller-link', status: 'disabled' },
    ]);
  });
});
