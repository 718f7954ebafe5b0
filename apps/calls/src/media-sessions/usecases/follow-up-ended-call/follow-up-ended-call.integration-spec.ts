// What follows a call's end in the running calls module: the call ends the way the stale sweep ends it (on the
// manual clock), its call.status_updated goes out through the outbox, and the module's own durable consumer then
// stops the voice session still live (voice.session.terminate to the replica holding it, a fake peer), hangs the
// call up at the carrier (the fake sandbox carrier) since the platform ended it without the carrier's word, and
// hangs up the human's leg of a warm transfer still under way, settling it failed.
import { DataSource } from 'typeorm';
import { CallTransferredData, DomainEvents } from '@vap/messages';
import { waitFor } from '@vap/testing';
import { StaleCallSweeper } from '../../../progress/usecases/sweep-stale-calls/stale-call-sweeper.service';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { saveSandboxCall, useCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';
import { saveWarmTransferCall, TRANSFER_HUMAN } from '../../../testing/warm-transfer-calls';

const UNCAPPED_SECS = 600;
const GRACE_SECS = 60;

describe('follow up an ended call', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();
  const terminated: string[] = [];

  const calls = useCallsOnSandbox(carrier, {
    env: {
      STALE_CALL_UNCAPPED_SECS: String(UNCAPPED_SECS),
      STALE_CALL_GRACE_SECS: String(GRACE_SECS),
      // The spec runs the sweep itself.
      STALE_CALL_SWEEP_MS: '3600000',
    },
  });

  beforeAll(() => {
    dataSource = calls.get(DataSource);
    calls.peers.answer('voice.session.terminate', ({ callId }) => {
      terminated.push(callId);
      return { terminated: true };
    });
  });

  /** Makes the call created at the manual clock's now, so the sweep finds it stale once the clock moves on. */
  const createdNow = (id: string) =>
    dataSource.query(`UPDATE calls.calls SET created_at = $2 WHERE id = $1`, [id, calls.clock.now()]);

  const sweepPastLimit = async () => {
    calls.clock.advance((UNCAPPED_SECS + GRACE_SECS + 1) * 1000);
    return calls.get(StaleCallSweeper).sweep();
  };

  it('stops the live voice session, hangs up at the carrier, and ends a warm transfer under way', async () => {
    const streaming = await saveSandboxCall(dataSource, {}, { mediaStream: 'live', voiceReplicaId: 'r1' });
    const transferring = await saveWarmTransferCall(dataSource);
    await calls.send('calls.voice.warm_transfer', null, {
      callId: transferring.id,
      to: TRANSFER_HUMAN,
      reason: 'billing_question',
      briefing: 'Asha asks about a double charge.',
    });
    const humanLeg = (await storedCall(dataSource, transferring.id)).call.transfer!.legs[1].carrier_call_id!;
    await createdNow(streaming.id);
    await createdNow(transferring.id);

    expect(await sweepPastLimit()).toBeGreaterThanOrEqual(2);

    const hungUp = (sid: string) => carrier.onCall(sid).some((r) => r.form.get('Status') === 'completed');
    await waitFor(() => hungUp(streaming.providerCallId!) && hungUp(transferring.providerCallId!), {
      timeoutMs: 5000,
      intervalMs: 25,
      description: 'both stale calls hung up at the carrier',
    });
    await waitFor(() => hungUp(humanLeg), { timeoutMs: 5000, intervalMs: 25, description: 'the human leg' });
    await waitFor(() => terminated.includes(streaming.id), {
      timeoutMs: 5000,
      intervalMs: 25,
      description: 'the voice session stopped',
    });
    // Only a session still live is stopped.
    expect(terminated).not.toContain(transferring.id);
    const settled = await calls.waitForEvent<CallTransferredData>(
      DomainEvents.callTransferred,
      (e) => e.data.call_id === transferring.id && e.data.outcome === 'failed',
    );
    expect(settled.data.legs).toEqual([
      expect.objectContaining({ role: 'caller' }),
      expect.objectContaining({ role: 'human', status: 'failed', ended_at: expect.any(String) }),
    ]);
    expect((await storedCall(dataSource, transferring.id)).call.transfer?.outcome).toBe('failed');
  });
});
