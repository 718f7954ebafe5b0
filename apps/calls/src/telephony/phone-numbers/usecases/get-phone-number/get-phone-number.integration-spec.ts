// Getting a phone number in the running calls module: the partner's own number as imported; another
// partner's number, or an id of none, is 404.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('get a phone number', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("answers the partner's number, and 404 to another partner or an unknown id", async () => {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(calls.get(DataSource), partnerId, 'carrier_b');
    const imported = await calls.send('calls.phone_number.import', partnerId, {
      number: '+919812360001',
      connection_id: connectionId,
      label: 'Front desk',
    });

    await expect(calls.send('calls.phone_number.get', partnerId, { id: imported.id })).resolves.toEqual(
      imported,
    );

    const refusal = (caller: string, id: string) =>
      calls.send('calls.phone_number.get', caller, { id }).then(
        () => null,
        (err: AppError) => err,
      );
    await expect(refusal(randomUUID(), imported.id)).resolves.toMatchObject({
      code: ErrorCode.NOT_FOUND,
      message: 'Phone number not found',
    });
    await expect(refusal(partnerId, `pn_${randomUUID()}`)).resolves.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });
});
