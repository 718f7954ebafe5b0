// Deleting a do-not-call entry in the running calls module: the entry leaves the list (its number is no
// longer listed); another partner's entry is 404 and stays.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('delete a do-not-call entry', () => {
  const calls = useIntegrationApp(() => startCalls());

  it('removes the entry, so its number is listed no more', async () => {
    const partnerId = randomUUID();
    const entry = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812430001',
      reason: 'manual',
    });
    await expect(calls.send('calls.do_not_call.delete', partnerId, { id: entry.id })).resolves.toEqual({
      id: entry.id,
      deleted: true,
      message: 'Do-not-call entry deleted; the number may be dialled again',
    });
    await expect(
      calls.send('calls.do_not_call.lookup', partnerId, { number: '+919812430001' }),
    ).resolves.toMatchObject({ listed: false, matches: [] });
    await expect(calls.send('calls.do_not_call.delete', partnerId, { id: entry.id })).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });

  it("refuses another partner's entry with 404, keeping it", async () => {
    const partnerId = randomUUID();
    const entry = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812430002',
      reason: 'manual',
    });
    await expect(
      calls.send('calls.do_not_call.delete', randomUUID(), { id: entry.id }),
    ).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
      message: 'Do-not-call entry not found',
    });
    await expect(calls.send('calls.do_not_call.get', partnerId, { id: entry.id })).resolves.toEqual(entry);
  });
});
