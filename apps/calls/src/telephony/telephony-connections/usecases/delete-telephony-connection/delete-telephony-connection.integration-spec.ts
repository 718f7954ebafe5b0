// Deleting a telephony connection in the running calls module: its credentials and from-number go (the
// number's deletion published) and the row stays marked deleted; a live call on it, other numbers on it, the
// sandbox and another partner's connection are refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainEvents, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveCall } from '../../../../testing/call-rows';

describe('delete a telephony connection', () => {
  let dataSource: DataSource;

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  async function carrierB(partnerId: string) {
    await calls.send('calls.telephony.carrier_b_put', partnerId, {
      account_sid: 'ACtcn0000000000000000000000000000b1',
      auth_token: 'tcn-carrier-b-token-0001',
      from_number: '+14155570001',
    });
    const list = await calls.send('calls.telephony_connection.list', partnerId, {} as never);
    return list.telephony_connections.find((c) => c.provider === 'carrier_b')!;
  }

  it('deletes the credentials and from-number, publishes the number gone, and keeps the row marked deleted', async () => {
    const partnerId = randomUUID();
    const connection = await carrierB(partnerId);
    const fromNumberId = connection.numbers[0].id;

    await expect(
      calls.send('calls.telephony_connection.delete', partnerId, { id: connection.id }),
    ).resolves.toEqual({
      id: connection.id,
      deleted: true,
      numbers_deleted: ['+14155570001'],
      message: 'Telephony connection deleted',
    });
    const [row] = (await dataSource.query(
      `SELECT status, deleted_at IS NOT NULL AS deleted,
              (SELECT count(*)::int FROM calls.connection_credentials WHERE connection_id = c.id) AS creds,
              (SELECT count(*)::int FROM calls.phone_numbers WHERE connection_id = c.id) AS numbers
         FROM calls.connections c WHERE id = $1`,
      [connection.connection_id],
    )) as Record<string, unknown>[];
    expect(row).toEqual({ status: 'disabled', deleted: true, creds: 0, numbers: 0 });
    await calls.waitForEvent<{ id: string }>(
      DomainEvents.phoneNumberDeleted,
      (e) => e.data.id === fromNumberId,
    );
    await expect(
      calls.send('calls.telephony_connection.get', partnerId, { id: connection.id }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('refuses while a call on it is live or another number is on it, and the sandbox', async () => {
    const partnerId = randomUUID();
    const connection = await carrierB(partnerId);
    const call = await saveCall(dataSource, {
      partnerId,
      connectionId: connection.connection_id,
      provider: 'carrier_b',
    });
    await expect(
      calls.send('calls.telephony_connection.delete', partnerId, { id: connection.id }),
    ).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      message: '1 live call(s) use this connection; delete it once they have ended',
    });
    await dataSource.query(`UPDATE calls.calls SET status = 'completed' WHERE id = $1`, [call.id]);

    await calls.send('calls.phone_number.import', partnerId, {
      number: '+14155570009',
      connection_id: connection.connection_id,
    });
    await expect(
      calls.send('calls.telephony_connection.delete', partnerId, { id: connection.id }),
    ).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      message: expect.stringContaining('This connection still has 1 number(s) (+14155570009)'),
    });

    const sandbox = (
      await calls.send('calls.telephony_connection.list', partnerId, {} as never)
    ).telephony_connections.find((c) => c.provider === 'sandbox')!;
    await expect(
      calls.send('calls.telephony_connection.delete', partnerId, { id: sandbox.id }),
    ).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
    await expect(
      calls.send('calls.telephony_connection.delete', randomUUID(), { id: connection.id }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(
      calls.send('calls.telephony_connection.get', partnerId, { id: connection.id }),
    ).resolves.toMatchObject({ status: 'active' });
  });
});
