// One batch of a do-not-call import in the running calls module, as the gateway sends it: valid rows are added
// (source import unless given), rows listed already (before or earlier in the batch) are left as they were,
// invalid rows are reported and skipped; an empty batch is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('import do-not-call entries', () => {
  const calls = useIntegrationApp(() => startCalls());

  it('adds the valid rows, reports the listed and the rejected ones, and keeps earlier entries as they were', async () => {
    const partnerId = randomUUID();
    const before = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812450001',
      reason: 'complaint',
    });

    const report = await calls.send('calls.do_not_call.import', partnerId, {
      rows: [
        { row: 2, entry: { number: '+919812450001', reason: 'legal' } },
        { row: 3, entry: { number: '+919812450002', reason: 'opt_out', note: 'by letter' } },
        { row: 4, entry: { prefix: '+1900', reason: 'legal', source: 'registry' } },
        { row: 5, entry: { number: '+919812450002', reason: 'manual' } },
        { row: 6, entry: { number: 'nope', reason: 'manual' } },
        { row: 7, entry: { number: '+919812450003', prefix: '+91', reason: 'manual' } },
      ],
    });

    expect(report).toEqual({
      added: 2,
      already_listed: 2,
      rejected: 2,
      rows: [
        { row: 2, status: 'already_listed', error: null },
        { row: 3, status: 'added', error: null },
        { row: 4, status: 'added', error: null },
        { row: 5, status: 'already_listed', error: null },
        { row: 6, status: 'rejected', error: 'invalid_number' },
        { row: 7, status: 'rejected', error: 'number_and_prefix' },
      ],
    });
    const rows = (await calls
      .get(DataSource)
      .query(
        `SELECT id, value, reason, source, note FROM calls.do_not_call WHERE partner_id = $1 ORDER BY value`,
        [partnerId],
      )) as Record<string, string | null>[];
    expect(rows).toEqual([
      { id: expect.any(String), value: '+1900', reason: 'legal', source: 'registry', note: null },
      { id: before.id, value: '+919812450001', reason: 'complaint', source: 'api', note: null },
      {
        id: expect.any(String),
        value: '+919812450002',
        reason: 'opt_out',
        source: 'import',
        note: 'by letter',
      },
    ]);
  });

  it('refuses a batch with no rows', async () => {
    await expect(calls.send('calls.do_not_call.import', randomUUID(), { rows: [] })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
  });
});
