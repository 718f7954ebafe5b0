// calls.voice.opt_out as the voice service sends it (the agent's opt_out tool) to the running calls module: the
// person on the other end joins the partner's do-not-call list at once, once however often asked; a number that
// is not E.164 and another partner's call are refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { saveSandboxCall, useCallsOnSandbox } from '../../../testing/sandbox-calls';

describe('opt the caller out', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const listOf = (partnerId: string) =>
    dataSource.query(
      `SELECT id, kind, value, reason, source, note FROM calls.do_not_call WHERE partner_id = $1`,
      [partnerId],
    ) as Promise<Record<string, unknown>[]>;

  it('lists the callee of an outbound call once, however often asked', async () => {
    const call = await saveSandboxCall(dataSource, { toNumber: '+919812345678' });

    const first = await calls.send('calls.voice.opt_out', null, { callId: call.id });
    const again = await calls.send('calls.voice.opt_out', null, { callId: call.id });

    expect(first).toEqual({ number: '+919812345678', doNotCallId: expect.any(String) });
    expect(again).toEqual(first);
    expect(await listOf(call.partnerId)).toEqual([
      {
        id: first.doNotCallId,
        kind: 'number',
        value: '+919812345678',
        reason: 'opt_out',
        source: 'call',
        note: `asked during call ${call.id}`,
      },
    ]);
  });

  it('lists the caller of an inbound call', async () => {
    const call = await saveSandboxCall(dataSource, {
      direction: 'inbound',
      fromNumber: '+14155550100',
      toNumber: '+15550000002',
    });

    expect(await calls.send('calls.voice.opt_out', null, { callId: call.id })).toMatchObject({
      number: '+14155550100',
    });
    expect((await listOf(call.partnerId)).map((e) => e.value)).toEqual(['+14155550100']);
  });

  it('refuses a withheld number and another partner’s call, listing nothing', async () => {
    const withheld = await saveSandboxCall(dataSource, { direction: 'inbound', fromNumber: 'anonymous' });
    const other = await saveSandboxCall(dataSource);

    await expect(calls.send('calls.voice.opt_out', null, { callId: withheld.id })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    await expect(calls.send('calls.voice.opt_out', randomUUID(), { callId: other.id })).rejects.toMatchObject(
      { code: ErrorCode.NOT_FOUND },
    );
    expect([...(await listOf(withheld.partnerId)), ...(await listOf(other.partnerId))]).toEqual([]);
  });
});
