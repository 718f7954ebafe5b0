// The account's telephony configuration in the running calls module (GET /config/telephony): the sandbox line
// from the first read on with its default number, then the carrier connections with their masked account and
// callback URLs; deleted connections and another partner's are not listed.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('list the telephony configuration', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("lists the sandbox line and the partner's carrier connections, not deleted ones", async () => {
    const partnerId = randomUUID();
    const first = await calls.send('calls.telephony.list', partnerId, {} as never);
    expect(first.connections).toEqual([
      expect.objectContaining({
        provider: 'sandbox',
        account_id_masked: null,
        from_number: expect.stringMatching(/^\+1555\d{7}$/),
        inbound_webhook_url: null,
        status: 'active',
      }),
    ]);

    await calls.send('calls.telephony.carrier_b_put', partnerId, {
      account_sid: 'AClist000000000000000000000000000b1',
      auth_token: 'list-carrier-b-token-0001',
      from_number: '+14155630001',
    });
    await calls.send('calls.telephony.carrier_a_put', partnerId, {
      auth_id: 'MALISTCARRIERA000001',
      auth_token: 'list-carrier-a-token-0001',
      from_number: '+919812490001',
    });
    await calls
      .get(DataSource)
      .query(
        `UPDATE calls.connections SET deleted_at = now() WHERE partner_id = $1 AND provider = 'carrier_a'`,
        [partnerId],
      );
    await calls.send('calls.telephony.carrier_b_put', randomUUID(), {
      account_sid: 'AClist000000000000000000000000000b2',
      auth_token: 'list-carrier-b-token-0002',
      from_number: '+14155630002',
    });

    const { connections } = await calls.send('calls.telephony.list', partnerId, {} as never);
    expect(connections.map((c) => c.provider)).toEqual(['sandbox', 'carrier_b']);
    expect(connections[1]).toEqual({
      id: expect.any(String),
      provider: 'carrier_b',
      account_id_masked: 'ACli***************************00b1',
      from_number: '+14155630001',
      api_base_url: null,
      label: null,
      inbound_webhook_url: `${calls.config.callbackBaseUrl}/callbacks/inbound/carrier_b/${connections[1].id}/voice`,
      inbound_sms_url: `${calls.config.callbackBaseUrl}/callbacks/inbound/carrier_b/${connections[1].id}/sms`,
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });
});
