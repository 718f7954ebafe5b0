// Getting a do-not-call entry in the running calls module: the partner's own as created; another partner's,
// or an id of none, is 404.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('get a do-not-call entry', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("answers the partner's entry, and 404 to another partner or an unknown id", async () => {
    const partnerId = randomUUID();
    const entry = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812410001',
      reason: 'complaint',
    });
    await expect(calls.send('calls.do_not_call.get', partnerId, { id: entry.id })).resolves.toEqual(entry);
    await expect(calls.send('calls.do_not_call.get', randomUUID(), { id: entry.id })).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
      message: 'Do-not-call entry not found',
    });
    await expect(
      calls.send('calls.do_not_call.get', partnerId, { id: `dnc_${randomUUID()}` }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });
});
