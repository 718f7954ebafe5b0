// The account's telephony connections in the running calls module: the sandbox line from the first list on,
// then a carrier connection as PUT /config/telephony/carrier_b stored it, with its from-number; a reseller-link
// data link and another partner's connections are not listed.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('list telephony connections', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("lists the sandbox line, then the partner's carrier connection with its from-number", async () => {
    const partnerId = randomUUID();
    const first = await calls.send('calls.telephony_connection.list', partnerId, {} as never);
    expect(first.telephony_connections).toEqual([
      expect.objectContaining({ provider: 'sandbox', status: 'active', inbound_webhook_url: null }),
    ]);

    await calls.send('calls.telephony.carrier_b_put', partnerId, {
      account_sid: 'ACtcn0000000000000000000000000000b1',
      auth_token: 'tcn-carrier-b-token-0001',
      from_number: '+14155570001',
    });
    await saveConnection(calls.get(DataSource), partnerId, 'reseller-link');
    await calls.send('calls.telephony_connection.list', randomUUID(), {} as never);

    const { telephony_connections } = await calls.send(
      'calls.telephony_connection.list',
      partnerId,
      {} as never,
    );
    expect(telephony_connections.map((c) => c.provider)).toEqual(['sandbox', 'carrier_b']);
    const carrierB = telephony_connections[1];
    expect(carrierB).toMatchObject({
      id: `tcn_${carrierB.connection_id}`,
      from_number: '+14155570001',
      account_id_masked: expect.stringMatching(/^AC/),
      inbound_webhook_url: `${calls.config.callbackBaseUrl}/callbacks/inbound/carrier_b/${carrierB.connection_id}/voice`,
      numbers: [expect.objectContaining({ number: '+14155570001', is_from_number: true })],
      numbers_total: 1,
      health: { last_success: null, last_failure: null, last_callback: null },
    });
  });
});
