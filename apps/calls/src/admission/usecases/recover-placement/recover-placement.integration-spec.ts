// Placement recovery in the running calls module: an admitted outbound call whose start failed part-way (no
// carrier id past the grace) either was never handed to the carrier, and ends failed through the progress path
// with its end published, or was, and the carrier (the fake sandbox carrier's call listing) is asked for it: the
// one call it has is adopted and its record read; none ends the call failed. A call still inside the grace is
// left to its start.
import { DataSource } from 'typeorm';
import { CallStatusUpdatedData, DomainEvents } from '@vap/messages';
import { Call } from '../../../calls/entities/call.entity';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { saveSandboxCall, useCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';
import { PlacementRecovery } from './placement-recovery.service';

const GRACE_SECS = 10;

describe('recover a placement', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier, {
    // The spec runs the recovery itself.
    env: { PLACEMENT_GRACE_SECS: String(GRACE_SECS), PLACEMENT_RECOVERY_MS: '60000' },
  });

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  /**
   * An admitted outbound call without a carrier id, created `ageSecs` ago; `dialledSecsAgo` when its dial
   * began (the carrier may have it).
   */
  async function unplaced(toNumber: string, ageSecs: number, dialledSecsAgo: number | null): Promise<Call> {
    const call = await saveSandboxCall(dataSource, {
      providerCallId: null,
      status: 'pending',
      startedAt: null,
      answeredBy: null,
      toNumber,
    });
    const ago = (secs: number) => new Date(Date.now() - secs * 1000);
    await dataSource.query(`UPDATE calls.calls SET created_at = $2, dial_started_at = $3 WHERE id = $1`, [
      call.id,
      ago(ageSecs),
      dialledSecsAgo === null ? null : ago(dialledSecsAgo),
    ]);
    return (await storedCall(dataSource, call.id)).call;
  }

  const endOf = (id: string) =>
    calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === id && e.data.terminal === true,
    );

  it('ends failed a call never handed to the carrier, and leaves one still inside the grace', async () => {
    const never = await unplaced('+14155550201', GRACE_SECS + 30, null);
    const young = await unplaced('+14155550202', 1, null);
    const asked = carrier.requests.length;

    await calls.get(PlacementRecovery).sweep();

    expect((await storedCall(dataSource, never.id)).call).toMatchObject({
      status: 'failed',
      hangupCause: 'PLACEMENT_INTERRUPTED',
      endCallReason: 'placement_interrupted',
    });
    expect((await endOf(never.id)).data).toMatchObject({
      status: 'failed',
      hangup_cause: 'PLACEMENT_INTERRUPTED',
      provider_event: 'placement-interrupted',
      concurrency_released: true,
    });
    // Never dialled: the carrier is not asked.
    expect(carrier.requests.length).toBe(asked);
    expect((await storedCall(dataSource, young.id)).call.status).toBe('pending');
  });

  it('adopts the one call the carrier has of a dialled placement, and keeps it live as the carrier says', async () => {
    const call = await unplaced('+14155550203', GRACE_SECS + 60, GRACE_SECS + 50);
    carrier.known.set('CAfound1', {
      to: '+14155550203',
      from: call.fromNumber,
      status: 'in-progress',
      date_created: new Date(Date.now() - (GRACE_SECS + 45) * 1000).toUTCString(),
    });

    await calls.get(PlacementRecovery).sweep();

    const listed = carrier.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/Calls.json?'));
    expect(listed.some((r) => r.path.includes(encodeURIComponent('+14155550203')))).toBe(true);
    expect((await storedCall(dataSource, call.id)).call).toMatchObject({
      providerCallId: 'CAfound1',
      status: 'pending',
    });
  });

  it('ends failed a dialled placement the carrier has no call of', async () => {
    const call = await unplaced('+14155550204', GRACE_SECS + 60, GRACE_SECS + 50);

    await calls.get(PlacementRecovery).sweep();

    expect((await storedCall(dataSource, call.id)).call).toMatchObject({
      providerCallId: null,
      status: 'failed',
      endCallReason: 'placement_interrupted',
    });
    expect((await endOf(call.id)).data.status).toBe('failed');
  });
});
