// Listing a number or prefix in the running calls module: the entry is stored for the partner alone; one
// already listed is 409 naming it, and a body with both a number and a prefix, or neither, is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('create a do-not-call entry', () => {
  const calls = useIntegrationApp(() => startCalls());

  it('stores a number and a prefix for the partner, with the api source by default', async () => {
    const partnerId = randomUUID();
    const number = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812390001',
      reason: 'opt_out',
      note: 'asked by email',
    });
    expect(number).toMatchObject({
      id: expect.stringMatching(/^dnc_/),
      kind: 'number',
      number: '+919812390001',
      prefix: null,
      reason: 'opt_out',
      source: 'api',
      note: 'asked by email',
    });
    const prefix = await calls.send('calls.do_not_call.create', partnerId, {
      prefix: '+1900',
      reason: 'legal',
      source: 'registry',
    });
    expect(prefix).toMatchObject({ kind: 'prefix', number: null, prefix: '+1900', source: 'registry' });
    const rows = (await calls
      .get(DataSource)
      .query(`SELECT id, kind, value, reason FROM calls.do_not_call WHERE partner_id = $1 ORDER BY kind`, [
        partnerId,
      ])) as Record<string, string>[];
    expect(rows).toEqual([
      { id: number.id, kind: 'number', value: '+919812390001', reason: 'opt_out' },
      { id: prefix.id, kind: 'prefix', value: '+1900', reason: 'legal' },
    ]);
  });

  it('refuses a number already listed with 409 naming its entry; another partner may list it too', async () => {
    const partnerId = randomUUID();
    const first = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812390002',
      reason: 'complaint',
    });
    await expect(
      calls.send('calls.do_not_call.create', partnerId, { number: '+919812390002', reason: 'manual' }),
    ).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      message: `The number +919812390002 is already on the do-not-call list (${first.id})`,
    });
    await expect(
      calls.send('calls.do_not_call.create', randomUUID(), { number: '+919812390002', reason: 'manual' }),
    ).resolves.toMatchObject({ number: '+919812390002' });
  });

  it('refuses a number and a prefix together, neither, and an unknown reason', async () => {
    const partnerId = randomUUID();
    await expect(
      calls.send('calls.do_not_call.create', partnerId, {
        number: '+919812390003',
        prefix: '+91981',
        reason: 'manual',
      }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(
      calls.send('calls.do_not_call.create', partnerId, { reason: 'manual' }),
    ).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Invalid request: number or prefix is required',
    });
    await expect(
      calls.send('calls.do_not_call.create', partnerId, { number: '+919812390003', reason: 'nope' as never }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    const rows = (await calls
      .get(DataSource)
      .query(`SELECT 1 FROM calls.do_not_call WHERE partner_id = $1`, [partnerId])) as unknown[];
    expect(rows).toEqual([]);
  });
});
