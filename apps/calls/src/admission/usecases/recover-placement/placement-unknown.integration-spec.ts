// A start whose placement outcome the calls service could not learn, in the running calls module: the carrier (a
// fake of the sandbox line's carrier_b REST API) takes the place-call request but answers after the service
// stopped waiting (CARRIER_HTTP_TIMEOUT_MS), or answers a server error. The call is then never failed while the
// carrier may carry it: the start answers it pending, and the placement recovery (run by the spec once the
// dial is past the grace) finds it in the carrier's listing, or ends it failed when the carrier has none. A
// placement the carrier clearly refuses (4xx) still fails the start at once.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallStatusUpdatedData, DomainEvents, ErrorCode } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';
import { callWebhook } from '../../../testing/sandbox-webhooks';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';
import { PlacementRecovery } from './placement-recovery.service';

const GRACE_SECS = 5;
/** The calls service waits this long for the carrier's answer to a place-call request. */
const DIAL_TIMEOUT_MS = 1000;

describe('a placement the carrier answers too late or with a server error', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();
  const partner = approvedPartner({ concurrencyLimit: 10 });
  let n = 0;

  const calls = useCallsOnSandbox(carrier, {
    env: {
      CARRIER_HTTP_TIMEOUT_MS: String(DIAL_TIMEOUT_MS),
      PLACEMENT_GRACE_SECS: String(GRACE_SECS),
      // The spec runs the recovery itself.
      PLACEMENT_RECOVERY_MS: '60000',
    },
  });

  beforeAll(() => {
    answerAgents(calls.peers);
    dataSource = calls.get(DataSource);
  });

  afterEach(() => {
    carrier.placementHeld = undefined;
    carrier.placementRefused = undefined;
  });

  const nextCallee = () => `+1415559${String(1000 + n++).padStart(4, '0')}`;
  const start = (to: string) =>
    calls.send('calls.call.start', partner, { agent_id: randomUUID(), to_number: to });
  const placementsTo = (to: string) =>
    carrier.requests.filter(
      (r) => r.method === 'POST' && r.path === '/Calls.json' && r.form.get('To') === to,
    );
  /** Puts the call's dial start past the grace and the dial timeout, as if that long had gone by. */
  const dialledLongAgo = (id: string) =>
    dataSource.query(
      `UPDATE calls.calls SET created_at = created_at - make_interval(secs => $2),
              dial_started_at = dial_started_at - make_interval(secs => $2) WHERE id = $1`,
      [id, GRACE_SECS + DIAL_TIMEOUT_MS / 1000 + 5],
    );
  const statusesOf = async (id: string) =>
    (await calls.events(DomainEvents.callStatusUpdated))
      .map((e) => e.event.data as CallStatusUpdatedData)
      .filter((d) => d.call_id === id)
      .map((d) => d.status);

  it('follows a call placed after the dial timed out: found at the carrier, never failed', async () => {
    let answerLate!: () => void;
    carrier.placementHeld = new Promise((resolve) => (answerLate = resolve));
    const to = nextCallee();
    // The carrier may have the call: the start answers it, pending, instead of a failure.
    const { call: started } = await start(to);
    expect(started.status).toBe('pending');
    answerLate();
    const [placed] = placementsTo(to);
    carrier.known.set(placed.sid!, {
      to,
      from: placed.form.get('From')!,
      status: 'ringing',
      date_created: new Date().toUTCString(),
    });

    // Before the grace is over the recovery leaves it to its start; after it, it lists the account's calls to
    // the callee and reads the one it adopts.
    await calls.get(PlacementRecovery).sweep();
    expect((await storedCall(dataSource, started.call_id)).call.providerCallId).toBeNull();
    await dialledLongAgo(started.call_id);
    expect(await calls.get(PlacementRecovery).sweep()).toBe(1);
    expect(
      carrier.requests.some(
        (r) => r.method === 'GET' && r.path.startsWith(`/Calls.json?To=${encodeURIComponent(to)}`),
      ),
    ).toBe(true);
    expect(carrier.onCall(placed.sid!).map((r) => r.method)).toEqual(['GET']);
    expect((await storedCall(dataSource, started.call_id)).call.providerCallId).toBe(placed.sid);

    // Its callbacks now drive it to its end, billed for its talk.
    const callback = (form: Record<string, string>) =>
      calls.send(
        'calls.callback.ingest',
        null,
        callWebhook(placed.form.get('StatusCallback')!, { CallSid: placed.sid!, ...form }),
      );
    expect((await callback({ CallStatus: 'ringing', SequenceNumber: '1' })).status).toBe(200);
    expect((await calls.send('calls.call.get', partner, { id: started.call_id })).status).toBe('ringing');
    carrier.known.set(placed.sid!, {
      ...carrier.known.get(placed.sid!)!,
      status: 'completed',
      duration: '7',
    });
    expect((await callback({ CallStatus: 'completed', CallDuration: '7', SequenceNumber: '3' })).status).toBe(
      200,
    );
    expect(await calls.send('calls.call.get', partner, { id: started.call_id })).toMatchObject({
      status: 'completed',
      duration_seconds: 7,
    });
    await calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === started.call_id && e.data.terminal,
    );
    expect(await statusesOf(started.call_id)).not.toContain('failed');
    expect(placementsTo(to)).toHaveLength(1);
    // Not hung up: the only requests on the call were the recovery's read of its record.
    expect(carrier.onCall(placed.sid!).filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('waits out a server error, then ends the call failed once the carrier has no such call', async () => {
    carrier.placementRefused = 500;
    const to = nextCallee();
    const { call: started } = await start(to);
    expect(started.status).toBe('pending');

    await dialledLongAgo(started.call_id);
    expect(await calls.get(PlacementRecovery).sweep()).toBe(1);
    expect(await calls.send('calls.call.get', partner, { id: started.call_id })).toMatchObject({
      status: 'failed',
      end_call_reason: 'placement_interrupted',
    });
    expect(
      carrier.requests.some((r) => r.method === 'GET' && r.path.includes(`To=${encodeURIComponent(to)}`)),
    ).toBe(true);
    expect(placementsTo(to).filter((r) => r.sid)).toHaveLength(0);
  });

  it('still fails at once a placement the carrier clearly refuses (4xx)', async () => {
    carrier.placementRefused = 400;
    const to = nextCallee();
    await expect(start(to)).rejects.toMatchObject({ code: ErrorCode.INTERNAL_ERROR });
    const listed = await calls.send('calls.call.list', partner, {});
    expect(listed.calls.find((c) => c.to_number === to)?.status).toBe('failed');
  });
});
