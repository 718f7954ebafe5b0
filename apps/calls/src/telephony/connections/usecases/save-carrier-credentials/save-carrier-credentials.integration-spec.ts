// Saving carrier credentials in the running calls module (PUT /config/telephony/<carrier> as the gateway sends
// it): the connection is created with its credentials sealed and its from-number made a number of the account,
// and the change is published; a second PUT replaces them in place, bringing back a deleted connection with its
// id; a body without a credential is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainEvents, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { CarrierACredentials, CarrierBCredentials, CredentialsStore } from '../../credentials-store.service';

describe('save carrier credentials', () => {
  let dataSource: DataSource;

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const connectionsOf = async (partnerId: string) =>
    (await dataSource.query(
      `SELECT c.id, c.provider, c.status, c.deleted_at, k.account_id_masked, k.from_number
         FROM calls.connections c JOIN calls.connection_credentials k ON k.connection_id = c.id
        WHERE c.partner_id = $1`,
      [partnerId],
    )) as {
      id: string;
      provider: string;
      status: string;
      deleted_at: Date | null;
      account_id_masked: string;
      from_number: string;
    }[];

  it('creates the carrier_b connection, seals its credentials, adopts its from-number and publishes it', async () => {
    const partnerId = randomUUID();
    const saved = await calls.send('calls.telephony.carrier_b_put', partnerId, {
      account_sid: 'ACsave000000000000000000000000000b1',
      auth_token: 'save-carrier-b-token-0001',
      from_number: '+14155620001',
    });
    expect(saved).toEqual({
      account_sid: 'ACsa***************************00b1',
      from_number: '+14155620001',
      message: 'carrier_b credentials saved',
    });
    const [connection] = await connectionsOf(partnerId);
    expect(connection).toMatchObject({
      provider: 'carrier_b',
      status: 'active',
      account_id_masked: saved.account_sid,
      from_number: '+14155620001',
    });
    await expect(calls.get(CredentialsStore).open<CarrierBCredentials>(connection.id)).resolves.toEqual({
      account_sid: 'ACsave000000000000000000000000000b1',
      auth_token: 'save-carrier-b-token-0001',
    });
    const numbers = (await dataSource.query(
      `SELECT number, connection_id, provider, label FROM calls.phone_numbers WHERE partner_id = $1`,
      [partnerId],
    )) as Record<string, string>[];
    expect(numbers).toEqual([
      {
        number: '+14155620001',
        connection_id: connection.id,
        provider: 'carrier_b',
        label: 'carrier_b from-number',
      },
    ]);
    const event = await calls.waitForEvent<{ connection_id: string; from_number: string }>(
      DomainEvents.telephonyConnectionUpdated,
      (e) => e.data.connection_id === connection.id,
    );
    expect(event.data).toEqual({
      connection_id: connection.id,
      provider: 'carrier_b',
      account_id_masked: saved.account_sid,
      from_number: '+14155620001',
    });
    await calls.waitForEvent<{ number: string }>(
      DomainEvents.phoneNumberImported,
      (e) => e.partnerId === partnerId && e.data.number === '+14155620001',
    );
  });

  it('replaces carrier_a credentials in place and brings a deleted connection back with its id', async () => {
    const partnerId = randomUUID();
    const first = await calls.send('calls.telephony.carrier_a_put', partnerId, {
      auth_id: 'MASAVECARRIERA000001',
      auth_token: 'save-carrier-a-token-0001',
      from_number: '+919812480001',
    });
    expect(first).toEqual({
      auth_id: 'MASA************0001',
      from_number: '+919812480001',
      message: 'carrier_a credentials saved',
    });
    const [connection] = await connectionsOf(partnerId);
    await dataSource.query(
      `UPDATE calls.connections SET status = 'disabled', deleted_at = now() WHERE id = $1`,
      [connection.id],
    );

    await calls.send('calls.telephony.carrier_a_put', partnerId, {
      auth_id: 'MASAVECARRIERA000002',
      auth_token: 'save-carrier-a-token-0002',
      from_number: '+919812480002',
    });
    expect(await connectionsOf(partnerId)).toEqual([
      {
        id: connection.id,
        provider: 'carrier_a',
        status: 'active',
        deleted_at: null,
        account_id_masked: 'MASA************0002',
        from_number: '+919812480002',
      },
    ]);
    await expect(calls.get(CredentialsStore).open<CarrierACredentials>(connection.id)).resolves.toEqual({
      auth_id: 'MASAVECARRIERA000002',
      auth_token: 'save-carrier-a-token-0002',
    });
  });

  it('refuses a body without a credential, storing nothing', async () => {
    const partnerId = randomUUID();
    await expect(
      calls.send('calls.telephony.carrier_b_put', partnerId, {
        account_sid: 'ACsave000000000000000000000000000b1',
        from_number: '+14155620009',
      } as never),
    ).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Invalid request: auth_token is required',
    });
    expect(await connectionsOf(partnerId)).toEqual([]);
  });
});
