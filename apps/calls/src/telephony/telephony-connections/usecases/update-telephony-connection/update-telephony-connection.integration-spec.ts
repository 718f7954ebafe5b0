// Changing a telephony connection in the running calls module: the auth token is resealed, the from-number
// becomes a number of the connection and the change is published, the label is stored; the sandbox, another
// connection's number, an empty change and another partner's connection are refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { CarrierBCredentials, CredentialsStore } from '../../../connections/credentials-store.service';

describe('update a telephony connection', () => {
  const calls = useIntegrationApp(() => startCalls());

  async function carrierB(partnerId: string) {
    await calls.send('calls.telephony.carrier_b_put', partnerId, {
      account_sid: 'ACtcn0000000000000000000000000000b1',
      auth_token: 'tcn-carrier-b-token-0001',
      from_number: '+14155570001',
    });
    const list = await calls.send('calls.telephony_connection.list', partnerId, {} as never);
    return list.telephony_connections.find((c) => c.provider === 'carrier_b')!;
  }

  it('reseals the token, adopts the new from-number and publishes it, and stores the label', async () => {
    const partnerId = randomUUID();
    const connection = await carrierB(partnerId);

    const updated = await calls.send('calls.telephony_connection.update', partnerId, {
      id: connection.id,
      changes: { auth_token: 'tcn-carrier-b-token-0002', from_number: '+14155570002', label: 'US line' },
    });

    expect(updated).toMatchObject({ id: connection.id, from_number: '+14155570002', label: 'US line' });
    expect(updated.numbers.map((n) => [n.number, n.is_from_number])).toEqual([
      ['+14155570001', false],
      ['+14155570002', true],
    ]);
    await expect(
      calls.get(CredentialsStore).open<CarrierBCredentials>(connection.connection_id),
    ).resolves.toMatchObject({ auth_token: 'tcn-carrier-b-token-0002' });
    const event = await calls.waitForEvent<{ connection_id: string; from_number: string }>(
      DomainEvents.telephonyConnectionUpdated,
      (e) => e.data.connection_id === connection.connection_id && e.data.from_number === '+14155570002',
    );
    expect(event.partnerId).toBe(partnerId);
    const [row] = (await calls
      .get(DataSource)
      .query(`SELECT from_number, label FROM calls.connection_credentials WHERE connection_id = $1`, [
        connection.connection_id,
      ])) as Record<string, string>[];
    expect(row).toEqual({ from_number: '+14155570002', label: 'US line' });
  });

  it("refuses the sandbox, another connection's number, no change, and another partner's connection", async () => {
    const partnerId = randomUUID();
    const connection = await carrierB(partnerId);
    const sandbox = (
      await calls.send('calls.telephony_connection.list', partnerId, {} as never)
    ).telephony_connections.find((c) => c.provider === 'sandbox')!;
    const refusal = (caller: string, id: string, changes: object) =>
      calls.send('calls.telephony_connection.update', caller, { id, changes }).then(
        () => null,
        (err: AppError) => err,
      );

    await expect(refusal(partnerId, sandbox.id, { label: 'x' })).resolves.toMatchObject({
      code: ErrorCode.CONFLICT,
    });
    await expect(
      refusal(partnerId, connection.id, { from_number: sandbox.from_number }),
    ).resolves.toMatchObject({
      code: ErrorCode.CONFLICT,
      message: `${sandbox.from_number} is a number of another connection of the account; use one of this connection`,
    });
    await expect(refusal(partnerId, connection.id, {})).resolves.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    await expect(refusal(randomUUID(), connection.id, { label: 'x' })).resolves.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
    await expect(
      calls.send('calls.telephony_connection.get', partnerId, { id: connection.id }),
    ).resolves.toEqual(connection);
  });
});
