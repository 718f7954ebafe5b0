// The stale-call sweep in the calls service as it runs: its own module on its own database and NATS prefix,
// time moved by the manual clock instead of waited for. A call older than its limit fails through the progress
// path and its end is published; a call still inside its limit is left alone.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallStatusUpdatedData, DomainEvents } from '@vap/messages';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../../../config/calls.config';
import { saveCall, saveConnection } from '../../../testing/call-rows';
import { startCalls } from '../../../testing/calls-integration';
import { StaleCallSweeper } from './stale-call-sweeper.service';

const UNCAPPED_SECS = 600;
const GRACE_SECS = 60;

describe('sweep stale calls', () => {
  let calls: IntegrationApp<CallsConfig>;
  let dataSource: DataSource;

  beforeAll(async () => {
    calls = await startCalls({
      env: {
        STALE_CALL_UNCAPPED_SECS: String(UNCAPPED_SECS),
        STALE_CALL_GRACE_SECS: String(GRACE_SECS),
        // The spec runs the sweep itself, at the instants it chooses.
        STALE_CALL_SWEEP_MS: '3600000',
      },
    });
    dataSource = calls.get(DataSource);
  });

  afterAll(() => calls?.stop());

  /** A live carrier_b call created at the manual clock's now. */
  async function callCreatedNow(): Promise<string> {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const call = await saveCall(dataSource, { partnerId, connectionId, provider: 'carrier_b' });
    await dataSource.query(`UPDATE calls.calls SET created_at = $2 WHERE id = $1`, [
      call.id,
      calls.clock.now(),
    ]);
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
});
