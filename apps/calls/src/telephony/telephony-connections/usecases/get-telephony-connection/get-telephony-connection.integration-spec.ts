// One telephony connection in the running calls module: the partner's own by its tcn_ id, as the list shows
// it; another partner's, a reseller-link data link and an id that is not a tcn_ id are 404.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('get a telephony connection', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("answers the partner's connection, and 404 to another partner, a data link or a bad id", async () => {
    const partnerId = randomUUID();
    const [sandbox] = (await calls.send('calls.telephony_connection.list', partnerId, {} as never))
      .telephony_connections;
    await expect(
      calls.send('calls.telephony_connection.get', partnerId, { id: sandbox.id }),
    ).resolves.toEqual(sandbox);

    const link = await saveConnection(calls.get(DataSource), partnerId, 'reseller-link');
    for (const [caller, id] of [
      [randomUUID(), sandbox.id],
      [partnerId, `tcn_${link}`],
      [partnerId, sandbox.connection_id],
    ]) {
      await expect(calls.send('calls.telephony_connection.get', caller, { id })).rejects.toMatchObject({
        code: ErrorCode.NOT_FOUND,
        message: 'Telephony connection not found',
      });
    }
  });
});
