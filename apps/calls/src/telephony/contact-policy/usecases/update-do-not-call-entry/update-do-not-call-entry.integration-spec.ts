// Updating a do-not-call entry in the running calls module: reason, source and note change and are stored
// (null clears the note); another partner's entry is 404 and stays as it was.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('update a do-not-call entry', () => {
  let dataSource: DataSource;

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const rowOf = async (id: string) =>
    (
      (await dataSource.query(`SELECT reason, source, note, value FROM calls.do_not_call WHERE id = $1`, [
        id,
      ])) as Record<string, string | null>[]
    )[0];

  it('stores the new reason, source and note, and clears the note with null', async () => {
    const partnerId = randomUUID();
    const entry = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812420001',
      reason: 'manual',
      note: 'first',
    });
    const updated = await calls.send('calls.do_not_call.update', partnerId, {
      id: entry.id,
      changes: { reason: 'legal', source: 'regulator' },
    });
    expect(updated).toMatchObject({
      id: entry.id,
      number: '+919812420001',
      reason: 'legal',
      source: 'regulator',
      note: 'first',
    });
    await calls.send('calls.do_not_call.update', partnerId, { id: entry.id, changes: { note: null } });
    expect(await rowOf(entry.id)).toEqual({
      reason: 'legal',
      source: 'regulator',
      note: null,
      value: '+919812420001',
    });
  });

  it("refuses another partner's entry with 404, changing nothing", async () => {
    const partnerId = randomUUID();
    const entry = await calls.send('calls.do_not_call.create', partnerId, {
      prefix: '+4420',
      reason: 'manual',
    });
    await expect(
      calls.send('calls.do_not_call.update', randomUUID(), { id: entry.id, changes: { reason: 'legal' } }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await rowOf(entry.id)).toMatchObject({ reason: 'manual', source: 'api' });
  });
});
