// calls.billing.unbilled as the gateway's billing reconciler sends it to the running calls module: a page of the
// partner's charges not yet acknowledged, in call id order with a cursor, each with what it is for and the
// platform-paid speech and model use the ledger keeps. Acknowledged charges, other partners' charges and (for a
// while) a charge whose voice report has not come are left out; a bad cursor or limit is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { saveChargedCall } from '../../../testing/charged-calls';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox } from '../../../testing/sandbox-calls';

const PRICE_PER_MINUTE = 500;

describe('list unbilled charges', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier, {
    env: { CALL_PRICE_PER_MINUTE_PAISE: String(PRICE_PER_MINUTE) },
  });

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const charge = (partnerId: string, billDurationSeconds = 60) =>
    saveChargedCall(dataSource, calls.config, { partnerId, billDurationSeconds });

  it('pages the partner’s unbilled charges in call id order, with what each is for', async () => {
    const partnerId = randomUUID();
    const ids = [];
    for (const seconds of [60, 90, 30]) ids.push((await charge(partnerId, seconds)).id);
    await charge(randomUUID());
    const first = [...ids].sort()[0];
    await dataSource.query(`UPDATE calls.calls SET platform_speech_providers = '{deepgram}' WHERE id = $1`, [
      first,
    ]);

    const page1 = await calls.send('calls.billing.unbilled', partnerId, { limit: 2 });
    const page2 = await calls.send('calls.billing.unbilled', partnerId, {
      cursor: page1.nextCursor,
      limit: 2,
    });

    const listed = [...page1.charges, ...page2.charges];
    expect(listed.map((c) => c.callId)).toEqual([...ids].sort());
    expect(page1.nextCursor).toBe(page1.charges[1].callId);
    expect(page2.nextCursor).toBeNull();
    const firstCharge = listed[0];
    const firstCall = await dataSource.query(
      `SELECT session_id, agent_id, project_id FROM calls.calls WHERE id = $1`,
      [first],
    );
    expect(firstCharge).toMatchObject({
      sessionId: firstCall[0].session_id,
      agentId: firstCall[0].agent_id,
      projectId: firstCall[0].project_id,
      campaignId: null,
      browserSessionId: null,
      billingRate: 'standard',
      platformPaidSpeech: ['deepgram'],
      modelUsage: [],
    });
    const bySeconds = Object.fromEntries(listed.map((c) => [c.billSeconds, c.amountPaise]));
    expect(bySeconds).toEqual({ 30: 250, 60: 500, 90: 750 });
  });

  it('leaves out acknowledged charges, and a charge still waiting for its voice report', async () => {
    const partnerId = randomUUID();
    const billed = await charge(partnerId);
    // Its stream is live: the voice report naming what the platform paid for has not come yet.
    await saveChargedCall(dataSource, calls.config, { partnerId }, { mediaStream: 'live' });
    const open = await charge(partnerId);
    await calls.send('calls.billing.acknowledge', partnerId, { callIds: [billed.id] });

    const page = await calls.send('calls.billing.unbilled', partnerId, {});

    expect(page.charges.map((c) => c.callId)).toEqual([open.id]);
  });

  it('refuses a cursor it did not hand out and a limit out of range', async () => {
    const partnerId = randomUUID();
    await expect(calls.send('calls.billing.unbilled', partnerId, { cursor: 'abc' })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    for (const limit of [0, 501, 1.5]) {
      await expect(calls.send('calls.billing.unbilled', partnerId, { limit })).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
      });
    }
  });
});
