// The stale-call sweep in the calls service as it runs: its own module on its own database and NATS prefix,
// time moved by the manual clock instead of waited for. A call older than its limit fails through the progress
// path and its end is published; a call still inside its limit is left alone. A call started through the command
// on a carrier (a fake of the sandbox line's REST API) that never reports a final status is ended at its agent's
// max duration, its session reported and its concurrency slot freed.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallStatusUpdatedData, DomainEvents, ErrorCode, SessionCompletedData } from '@vap/messages';
import { CallsConfig } from '../../../config/calls.config';
import { saveCall, saveConnection } from '../../../testing/call-rows';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox } from '../../../testing/sandbox-calls';
import { callWebhook } from '../../../testing/sandbox-webhooks';
import { approvedPartner, SPEC_SNAPSHOT } from '../../../testing/spec-partners';
import { StaleCallSweeper } from './stale-call-sweeper.service';

const UNCAPPED_SECS = 600;
const GRACE_SECS = 60;

describe('sweep stale calls', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier, {
    env: {
      STALE_CALL_UNCAPPED_SECS: String(UNCAPPED_SECS),
      STALE_CALL_GRACE_SECS: String(GRACE_SECS),
      // The spec runs the sweep itself, at the instants it chooses.
      STALE_CALL_SWEEP_MS: '3600000',
    },
  });

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  /** Dates the call's creation at the manual clock's now (the row's default is the wall clock's). */
  const createdNow = (id: string) =>
    dataSource.query(`UPDATE calls.calls SET created_at = $2 WHERE id = $1`, [id, calls.clock.now()]);

  /** A live carrier_b call created at the manual clock's now. */
  async function callCreatedNow(): Promise<string> {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const call = await saveCall(dataSource, { partnerId, connectionId, provider: 'carrier_b' });
    await createdNow(call.id);
    return call.id;
  }

  const statusOf = async (id: string) =>
    (
      (await dataSource.query(`SELECT status, hangup_cause FROM calls.calls WHERE id = $1`, [id])) as {
        status: string;
        hangup_cause: string | null;
      }[]
    )[0];

  it('ends the call past its limit, publishes its end, and leaves a fresh one', async () => {
    const sweeper = calls.get(StaleCallSweeper);
    const stale = await callCreatedNow();
    calls.clock.advance((UNCAPPED_SECS + GRACE_SECS) * 1000 - 1000);
    expect(await sweeper.sweep()).toBe(0);

    calls.clock.advance(2000);
    const fresh = await callCreatedNow();
    expect(await sweeper.sweep()).toBe(1);

    expect(await statusOf(stale)).toEqual({ status: 'failed', hangup_cause: 'NO_FINAL_STATUS' });
    expect((await statusOf(fresh)).status).toBe('in_progress');
    const ended = await calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === stale,
    );
    expect(ended.data).toMatchObject({ status: 'failed', hangup_cause: 'NO_FINAL_STATUS' });
    expect(
      (await calls.events(DomainEvents.callStatusUpdated)).filter(
        (e) => (e.event.data as CallStatusUpdatedData).call_id === fresh,
      ),
    ).toEqual([]);
  });

  it('fails a started call the carrier never finishes at its agent max duration, reports its session and frees its slot', async () => {
    const sweeper = calls.get(StaleCallSweeper);
    const maxCallDurationSecs = 60;
    calls.peers.answer('agents.agent.for_call', ({ id }) => ({
      id,
      name: 'Support',
      projectId: randomUUID(),
      snapshot: { ...SPEC_SNAPSHOT, maxCallDurationSecs },
    }));
    const partner = approvedPartner({ concurrencyLimit: 1 });
    const start = () =>
      calls.send('calls.call.start', partner, { agent_id: randomUUID(), to_number: '+919812345678' });
    const { call: started } = await start();
    await createdNow(started.call_id);
    await expect(start()).rejects.toMatchObject({ code: ErrorCode.LIMIT_REACHED });

    // Just inside the agent's limit and the grace the call stays live; past them it ends.
    calls.clock.advance((maxCallDurationSecs + GRACE_SECS) * 1000 - 1000);
    await sweeper.sweep();
    expect((await statusOf(started.call_id)).status).toBe('pending');
    calls.clock.advance(2000);
    await sweeper.sweep();

    await calls.waitForEvent<SessionCompletedData>(
      DomainEvents.sessionCompleted,
      (e) => e.data.call_id === started.call_id,
    );
    const call = await calls.send('calls.call.get', partner, { id: started.call_id });
    expect(call).toMatchObject({
      status: 'failed',
      disposition: 'failed',
      hangup_source: 'system',
      hangup_cause: 'NO_FINAL_STATUS',
      error_message: 'The carrier reported no final status in time',
      duration_seconds: 0,
    });
    expect(Date.parse(call.ended_at!) - Date.parse(call.created_at)).toBeGreaterThanOrEqual(
      maxCallDurationSecs * 1000,
    );
    expect(call.session).toMatchObject({ processing_complete: true, status: 'failed', transcript: null });
    const ended = await calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === started.call_id && e.data.terminal,
    );
    expect(ended.data).toMatchObject({ concurrency_released: true });
    expect((await start()).replayed).toBe(false);
  });

  it('bills an answered call it ends for its answered time, never past its agent max duration, once', async () => {
    const sweeper = calls.get(StaleCallSweeper);
    const maxCallDurationSecs = 60;
    calls.peers.answer('agents.agent.for_call', ({ id }) => ({
      id,
      name: 'Support',
      projectId: randomUUID(),
      snapshot: { ...SPEC_SNAPSHOT, maxCallDurationSecs },
    }));
    const partner = approvedPartner();
    const to = '+919812345613';
    const { call: started } = await calls.send('calls.call.start', partner, {
      agent_id: randomUUID(),
      to_number: to,
    });
    await createdNow(started.call_id);
    const placed = carrier.requests.find((r) => r.path === '/Calls.json' && r.form.get('To') === to)!;
    // Answered now, by the manual clock; the carrier never reports its end.
    const answered = await calls.send(
      'calls.callback.ingest',
      null,
      callWebhook(placed.form.get('StatusCallback')!, {
        CallSid: placed.sid!,
        CallStatus: 'in-progress',
        AnsweredBy: 'human',
        SequenceNumber: '1',
        Timestamp: calls.clock.now().toUTCString(),
      }),
    );
    expect(answered.status).toBe(200);

    calls.clock.advance((maxCallDurationSecs + GRACE_SECS) * 1000 + 1000);
    await sweeper.sweep();
    const completed = await calls.waitForEvent<SessionCompletedData>(
      DomainEvents.sessionCompleted,
      (e) => e.data.call_id === started.call_id,
    );
    const call = await calls.send('calls.call.get', partner, { id: started.call_id });
    expect(call).toMatchObject({
      status: 'failed',
      hangup_cause: 'NO_FINAL_STATUS',
      hangup_source: 'system',
    });
    // Answered until the sweeper ended it (the grace past the max duration later): billed the max duration.
    expect(call.bill_duration_seconds).toBe(maxCallDurationSecs);
    const price = calls.get(CallsConfig).CALL_PRICE_PER_MINUTE_PAISE;
    expect(completed.data.credits_used_paise).toBe(Math.ceil((call.bill_duration_seconds! * price) / 60));
    expect(call.session.credits_used).toBe(completed.data.credits_used_paise / 100);
    // Swept again, the ended call is not ended (or charged) twice.
    calls.clock.advance(60_000);
    await sweeper.sweep();
    expect(
      (await calls.events(DomainEvents.sessionCompleted)).filter(
        (e) => (e.event.data as SessionCompletedData).call_id === started.call_id,
      ),
    ).toHaveLength(1);
  });
});
