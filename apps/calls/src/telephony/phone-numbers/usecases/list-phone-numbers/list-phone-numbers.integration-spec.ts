// Listing phone numbers in the running calls module: a partner's first list already holds its sandbox default
// from-number; pages follow the cursor, a provider filters, and another partner's numbers never appear.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('list phone numbers', () => {
  let dataSource: DataSource;

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  async function importNumbers(partnerId: string, numbers: string[]): Promise<string[]> {
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const ids: string[] = [];
    for (const number of numbers) {
      ids.push(
        (await calls.send('calls.phone_number.import', partnerId, { number, connection_id: connectionId }))
          .id,
      );
    }
    return ids;
  }

  it("creates the partner's sandbox line on a first list and answers its default number", async () => {
    const partnerId = randomUUID();
    const { phone_numbers, next_cursor } = await calls.send('calls.phone_number.list', partnerId, {});
    expect(phone_numbers).toEqual([
      expect.objectContaining({ provider: 'sandbox', is_default: true, status: 'active' }),
    ]);
    expect(next_cursor).toBeNull();
    const rows = (await dataSource.query(`SELECT provider FROM calls.connections WHERE partner_id = $1`, [
      partnerId,
    ])) as { provider: string }[];
    expect(rows).toEqual([{ provider: 'sandbox' }]);
  });

  it("pages the partner's numbers by cursor, filters by provider, and shows no other partner's", async () => {
    const partnerId = randomUUID();
    const imported = await importNumbers(partnerId, ['+919812350001', '+919812350002']);
    await importNumbers(randomUUID(), ['+919812350003']);

    const first = await calls.send('calls.phone_number.list', partnerId, { limit: 2 });
    expect(first.phone_numbers).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    const second = await calls.send('calls.phone_number.list', partnerId, {
      limit: 2,
      cursor: first.next_cursor!,
    });
    expect(second.next_cursor).toBeNull();
    const all = [...first.phone_numbers, ...second.phone_numbers];
    expect(all.map((n) => n.provider).sort()).toEqual(['carrier_b', 'carrier_b', 'sandbox']);
    expect(all.map((n) => n.id)).toEqual(expect.arrayContaining(imported));

    const carrierB = await calls.send('calls.phone_number.list', partnerId, { provider: 'carrier_b' });
    expect(carrierB.phone_numbers.map((n) => n.number).sort()).toEqual(['+919812350001', '+919812350002']);
  });

  it('refuses a limit out of range and an unknown provider', async () => {
    const partnerId = randomUUID();
    const refusal = (data: object) =>
      calls.send('calls.phone_number.list', partnerId, data as never).then(
        () => null,
        (err: AppError) => err,
      );
    await expect(refusal({ limit: 500 })).resolves.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(refusal({ provider: 'carrier_z' })).resolves.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
  });
});
