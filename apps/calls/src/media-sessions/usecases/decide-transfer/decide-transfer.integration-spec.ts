// calls.voice.transfer_decision as the voice service sends it to the running calls module, on a warm transfer
// started the way the agent starts one (calls.voice.warm_transfer). The human accepting bridges both legs in the
// carrier's conference (the fake sandbox carrier); declining hangs the human up; the caller's side withdrawing
// settles it failed. Each settlement is kept on the call, published as call.transferred, and (for the consult's
// decisions) told to the voice replica holding the caller, a fake peer. The first decision stands.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallTransferredData, DomainEvents, ErrorCode } from '@vap/messages';
import { Call } from '../../../calls/entities/call.entity';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';
import { saveWarmTransferCall, TRANSFER_HUMAN } from '../../../testing/warm-transfer-calls';

describe('decide a transfer', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();
  const toldVoice: { callId: string; outcome: string }[] = [];

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
    calls.peers.answer('voice.session.transfer_outcome', (request) => {
      toldVoice.push(request);
      return { accepted: true };
    });
  });

  /** A call whose warm transfer is under way: its consult id and the human leg's sid. */
  async function transferUnderWay(): Promise<{ call: Call; consultId: string; humanLeg: string }> {
    const call = await saveWarmTransferCall(dataSource);
    const started = await calls.send('calls.voice.warm_transfer', null, {
      callId: call.id,
      to: TRANSFER_HUMAN,
      reason: 'billing_question',
      briefing: 'Asha asks about a double charge.',
    });
    expect(started).toEqual({ started: true });
    const { call: stored } = await storedCall(dataSource, call.id);
    const human = stored.transfer!.legs.find((leg) => leg.role === 'human')!;
    return { call: stored, consultId: stored.transferConsultId!, humanLeg: human.carrier_call_id! };
  }

  const published = (callId: string) =>
    calls.waitForEvent<CallTransferredData>(DomainEvents.callTransferred, (e) => e.data.call_id === callId);

  it('bridges both legs when the human accepts, keeps and publishes it, and tells the voice replica', async () => {
    const { call, consultId, humanLeg } = await transferUnderWay();

    const reply = await calls.send('calls.voice.transfer_decision', null, { consultId, accepted: true });
    // A later decision answers the first one's outcome.
    const again = await calls.send('calls.voice.transfer_decision', null, { consultId, accepted: false });

    expect(reply).toEqual({ outcome: 'bridged' });
    expect(again).toEqual({ outcome: 'bridged' });
    // The human's leg first, so the caller never waits alone in the room.
    const joined = [humanLeg, call.providerCallId!].map((sid) =>
      carrier.onCall(sid).map((r) => r.form.get('Twiml')),
    );
    expect(joined).toEqual([
      [expect.stringContaining('<Conference')],
      [expect.stringContaining('<Conference')],
    ]);
    const { call: stored } = await storedCall(dataSource, call.id);
    expect(stored.endCallReason).toBe('transferred');
    expect(stored.transfer).toMatchObject({
      outcome: 'bridged',
      bridged_at: expect.any(String),
      legs: [
        { role: 'caller', status: 'bridged' },
        { role: 'human', status: 'bridged' },
      ],
    });
    expect((await published(call.id)).data).toMatchObject({
      transfer_type: 'warm',
      transfer_to: TRANSFER_HUMAN,
      outcome: 'bridged',
    });
    expect(toldVoice).toContainEqual({ callId: call.id, outcome: 'bridged' });
  });

  it('hangs the human up when they decline, and settles the transfer declined', async () => {
    const { call, consultId, humanLeg } = await transferUnderWay();

    expect(await calls.send('calls.voice.transfer_decision', null, { consultId, accepted: false })).toEqual({
      outcome: 'declined',
    });

    expect(carrier.onCall(humanLeg).map((r) => r.form.get('Status'))).toEqual(['completed']);
    expect(carrier.onCall(call.providerCallId!)).toEqual([]);
    const { call: stored } = await storedCall(dataSource, call.id);
    expect(stored.endCallReason).toBeNull();
    expect(stored.transfer).toMatchObject({
      outcome: 'declined',
      legs: [{ role: 'caller' }, { role: 'human', status: 'declined', ended_at: expect.any(String) }],
    });
    expect((await published(call.id)).data.outcome).toBe('declined');
    expect(toldVoice).toContainEqual({ callId: call.id, outcome: 'declined' });
  });

  it('withdraws a transfer still under way from the caller’s side, without telling the voice replica', async () => {
    const { call, humanLeg } = await transferUnderWay();

    expect(
      await calls.send('calls.voice.transfer_decision', null, { callId: call.id, accepted: false }),
    ).toEqual({ outcome: 'failed' });

    expect(carrier.onCall(humanLeg).map((r) => r.form.get('Status'))).toEqual(['completed']);
    expect((await storedCall(dataSource, call.id)).call.transfer?.outcome).toBe('failed');
    expect((await published(call.id)).data.outcome).toBe('failed');
    expect(toldVoice.filter((t) => t.callId === call.id)).toEqual([]);
  });

  it('refuses an unknown consult, another partner’s transfer and a decision naming neither', async () => {
    const { consultId } = await transferUnderWay();

    await expect(
      calls.send('calls.voice.transfer_decision', null, { consultId: randomUUID(), accepted: true }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(
      calls.send('calls.voice.transfer_decision', randomUUID(), { consultId, accepted: true }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(calls.send('calls.voice.transfer_decision', null, { accepted: true })).rejects.toMatchObject(
      { code: ErrorCode.VALIDATION_ERROR },
    );
    expect(await calls.send('calls.voice.transfer_decision', null, { consultId, accepted: false })).toEqual({
      outcome: 'declined',
    });
  });
});
