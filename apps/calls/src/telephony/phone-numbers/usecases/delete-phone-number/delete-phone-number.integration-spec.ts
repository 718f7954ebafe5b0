// Deleting a phone number in the running calls module: the row goes and its deletion is published; a default
// from-number (the account's, or a connection's credentials from_number) is refused with 409
// DEFAULT_FROM_NUMBER, and another partner's number is 404. Numbers on no carrier application are not detached.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('delete a phone number', () => {
  let dataSource: DataSource;

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const refusal = (caller: string, id: string) =>
    calls.send('calls.phone_number.delete', caller, { id }).then(
      () => null,
      (err: AppError) => err,
    );
  const exists = async (id: string) =>
    ((await dataSource.query(`SELECT 1 FROM calls.phone_numbers WHERE id = $1`, [id])) as unknown[]).length >
    0;

  it('deletes the number and publishes its deletion', async () => {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const number = await calls.send('calls.phone_number.import', partnerId, {
      number: '+919812380001',
      connection_id: connectionId,
    });

    await expect(calls.send('calls.phone_number.delete', partnerId, { id: number.id })).resolves.toEqual({
      id: number.id,
      deleted: true,
      detached: null,
      message: 'Phone number deleted',
    });
    expect(await exists(number.id)).toBe(false);
    const published = await calls.waitForEvent<{ id: string; number: string }>(
      DomainEvents.phoneNumberDeleted,
      (e) => e.data.id === number.id,
    );
    expect(published.data).toEqual({ id: number.id, number: '+919812380001' });
  });

  it("refuses the account's default number and a connection's from-number (409), keeping them", async () => {
    const partnerId = randomUUID();
    const [sandbox] = (await calls.send('calls.phone_number.list', partnerId, {})).phone_numbers;
    await expect(refusal(partnerId, sandbox.id)).resolves.toMatchObject({
      code: ErrorCode.DEFAULT_FROM_NUMBER,
    });
    expect(await exists(sandbox.id)).toBe(true);

    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const number = await calls.send('calls.phone_number.import', partnerId, {
      number: '+919812380002',
      connection_id: connectionId,
    });
    await dataSource.query(
      `INSERT INTO calls.connection_credentials (connection_id, partner_id, account_id_masked, sealed, from_number)
       VALUES ($1, $2, 'AC****', 'sealed', $3)`,
      [connectionId, partnerId, '+919812380002'],
    );
    await expect(refusal(partnerId, number.id)).resolves.toMatchObject({
      code: ErrorCode.DEFAULT_FROM_NUMBER,
      message: '+919812380002 is a default from-number and cannot be deleted; set another from_number first',
    });
    expect(await exists(number.id)).toBe(true);
  });

  it("refuses another partner's number with 404, keeping it", async () => {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const number = await calls.send('calls.phone_number.import', partnerId, {
      number: '+919812380003',
      connection_id: connectionId,
    });
    await expect(refusal(randomUUID(), number.id)).resolves.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await exists(number.id)).toBe(true);
  });
});
