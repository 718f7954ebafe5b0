// calls.billing.acknowledge as the gateway's billing reconciler sends it to the running calls module once it
// debited the charges: they are marked billed and leave the unbilled list, once; another partner's charges and
// unknown calls are untouched; a malformed or oversized list is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { UNBILLED_PAGE_MAX } from '../../unbilled-page';
import { saveChargedCall } from '../../../testing/charged-calls';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox } from '../../../testing/sandbox-calls';

describe('acknowledge charges', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const billedAt = async (callId: string) =>
    (
      (await dataSource.query(`SELECT billed_at FROM calls.call_charges WHERE call_id = $1`, [callId])) as {
        billed_at: Date | null;
      }[]
    )[0].billed_at;

  it('marks the charges billed once, so they leave the unbilled list', async () => {
    const partnerId = randomUUID();
    const a = await saveChargedCall(dataSource, calls.config, { partnerId });
    const b = await saveChargedCall(dataSource, calls.config, { partnerId });
    const c = await saveChargedCall(dataSource, calls.config, { partnerId });

    expect(
      await calls.send('calls.billing.acknowledge', partnerId, { callIds: [a.id, b.id, randomUUID()] }),
    ).toEqual({ acknowledged: 2 });
    // A retried acknowledgement changes nothing.
    expect(await calls.send('calls.billing.acknowledge', partnerId, { callIds: [a.id] })).toEqual({
      acknowledged: 0,
    });

    expect(await billedAt(a.id)).toBeInstanceOf(Date);
    expect(await billedAt(c.id)).toBeNull();
    const page = await calls.send('calls.billing.unbilled', partnerId, {});
    expect(page.charges.map((ch) => ch.callId)).toEqual([c.id]);
  });

  it('leaves another partner’s charges alone', async () => {
    const owner = randomUUID();
    const call = await saveChargedCall(dataSource, calls.config, { partnerId: owner });

    expect(await calls.send('calls.billing.acknowledge', randomUUID(), { callIds: [call.id] })).toEqual({
      acknowledged: 0,
    });
    expect(await billedAt(call.id)).toBeNull();
  });

  it('refuses ids that are not call ids and more than a page of them', async () => {
    const partnerId = randomUUID();
    const call = await saveChargedCall(dataSource, calls.config, { partnerId });

    await expect(
      calls.send('calls.billing.acknowledge', partnerId, { callIds: [call.id, 'call:1'] }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(
      calls.send('calls.billing.acknowledge', partnerId, {
        callIds: Array.from({ length: UNBILLED_PAGE_MAX + 1 }, () => randomUUID()),
      }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    expect(await billedAt(call.id)).toBeNull();
    expect(await calls.send('calls.billing.acknowledge', partnerId, { callIds: [] })).toEqual({
      acknowledged: 0,
    });
  });
});
