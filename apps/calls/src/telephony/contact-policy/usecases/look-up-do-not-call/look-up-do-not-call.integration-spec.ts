// Looking a number up in the running calls module: it is listed by its own entry or by any prefix it starts
// with, longest first; another partner's entries do not list it, and a number that is not E.164 is refused.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('look up a number on the do-not-call list', () => {
  const calls = useIntegrationApp(() => startCalls());

  it('answers the entries that cover the number, longest first, of the partner alone', async () => {
    const partnerId = randomUUID();
    const short = await calls.send('calls.do_not_call.create', partnerId, {
      prefix: '+9198',
      reason: 'legal',
    });
    const own = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812440001',
      reason: 'opt_out',
    });
    const long = await calls.send('calls.do_not_call.create', partnerId, {
      prefix: '+9198124',
      reason: 'manual',
    });
    await calls.send('calls.do_not_call.create', partnerId, { prefix: '+9199', reason: 'legal' });

    const found = await calls.send('calls.do_not_call.lookup', partnerId, { number: '+919812440001' });
    expect(found).toEqual({ number: '+919812440001', listed: true, matches: [own, long, short] });

    await expect(
      calls.send('calls.do_not_call.lookup', randomUUID(), { number: '+919812440001' }),
    ).resolves.toEqual({ number: '+919812440001', listed: false, matches: [] });
  });

  it('refuses a number that is not E.164', async () => {
    await expect(
      calls.send('calls.do_not_call.lookup', randomUUID(), { number: '98124' }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
  });
});
