// Listing the do-not-call list in the running calls module: the partner's entries newest first, paged by
// cursor and filtered by reason or kind; another partner's entries never appear.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('list do-not-call entries', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("pages the partner's entries newest first and filters them, showing no other partner's", async () => {
    const partnerId = randomUUID();
    const ids: string[] = [];
    for (const entry of [
      { number: '+919812400001', reason: 'opt_out' as const },
      { number: '+919812400002', reason: 'legal' as const },
      { prefix: '+1900', reason: 'legal' as const },
    ]) {
      ids.push((await calls.send('calls.do_not_call.create', partnerId, entry)).id);
    }
    await calls.send('calls.do_not_call.create', randomUUID(), { number: '+919812400003', reason: 'legal' });

    const first = await calls.send('calls.do_not_call.list', partnerId, { limit: 2 });
    const second = await calls.send('calls.do_not_call.list', partnerId, {
      limit: 2,
      cursor: first.next_cursor!,
    });
    expect([...first.entries, ...second.entries].map((e) => e.id)).toEqual([...ids].reverse());
    expect(second.next_cursor).toBeNull();

    const legal = await calls.send('calls.do_not_call.list', partnerId, { reason: 'legal' });
    expect(legal.entries.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const prefixes = await calls.send('calls.do_not_call.list', partnerId, { kind: 'prefix' });
    expect(prefixes.entries.map((e) => e.id)).toEqual([ids[2]]);
  });

  it('refuses an unknown reason filter', async () => {
    await expect(
      calls.send('calls.do_not_call.list', randomUUID(), { reason: 'nope' as never }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
  });
});
