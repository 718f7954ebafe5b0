// The calls service's two work queues (post-call jobs, carrier reconciliations) against a real Postgres:
// an enqueue wakes the workers by NOTIFY instead of waiting for their next poll, failures are retried with
// their backoff, and a stopping worker finishes what it holds.
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase, waitFor } from '@vap/testing';
import { CarrierAdapter } from '../carriers/carrier-adapter';
import { RawCarrierEvent } from '../progress/raw-carrier-event';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { Call } from '../calls/entities/call.entity';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { PostCallProcessor } from '../post-call/post-call-processor.service';
import { enqueuePostCall } from './post-call-jobs';
import { PostCallWorker } from '../post-call/post-call-worker.service';
import { CallProgressService } from '../progress/call-progress.service';
import { CarrierReconciler } from '../carriers/reconciliation/carrier-reconciler.service';
import { CarrierReconciliationWorker } from '../carriers/reconciliation/carrier-reconciliation-worker.service';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** How long a woken worker may take; well under the poll. */
const WAIT_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Far longer than any wait below: only a wake-up makes a worker look at the queue in time. */
const SLOW_POLL_MS = 60_000;

describe('calls work queues', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let config: CallsConfig;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_work_queues');
    config = Object.assign(new CallsConfig(), {
      DATABASE_URL: db.url,
      POST_CALL_POLL_MS: SLOW_POLL_MS,
      CARRIER_RECONCILE_RETRY_MS: 15_000,
      CARRIER_RECONCILE_MAX_ATTEMPTS: 8,
    });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
  });

  afterAll(async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    await dataSource?.destroy();
    await db?.drop();
  });

  /** An answered carrier_a call, in the caller's transaction. */
  async function insertCall(em: EntityManager, status = 'in_progress'): Promise<string> {
    const partnerId = randomUUID();
    const connectionId = randomUUID();
    const callId = randomUUID();
    await em.query(
      `INSERT INTO calls.connections (id, partner_id, provider, name) VALUES ($1, $2, 'carrier_a', 'line')`,
      [connectionId, partnerId],
    );
    await em.query(
      `INSERT INTO calls.calls (id, partner_id, agent_id, session_id, direction, from_number, to_number,
                                connection_id, provider, status, agent_settings, started_at)
       VALUES ($1, $2, $3, $4, 'outbound', '+918000000001', '+918000000002', $5, 'carrier_a', $6, '{}', now())`,
      [callId, partnerId, randomUUID(), randomUUID(), connectionId, status],
    );
    return callId;
  }

  const jobOf = async (callId: string) =>
    (
      (await dataSource.query(
        `SELECT status, attempts, last_error, extract(epoch FROM run_after - now()) AS due_in
           FROM calls.post_call_jobs WHERE call_id = $1`,
        [callId],
      )) as { status: string; attempts: number; last_error: string | null; due_in: number }[]
    )[0];

  describe('post-call jobs', () => {
    const processed: { callId: string; attempts: number }[] = [];
    /** What the processor does with the next job: record it done, or fail. */
    let behaviour: (callId: string) => Promise<void>;
    let worker: PostCallWorker;

    beforeAll(async () => {
      // Stands in for the post-call pipeline (recording copy, extraction, events): it records its outcome
      // in the queue as the real processor does, which is all the worker relies on.
      const processor = {
        process: async (callId: string, attempts: number) => {
          processed.push({ callId, attempts });
          await behaviour(callId);
        },
      } as unknown as PostCallProcessor;
      worker = new PostCallWorker(dataSource, config, processor);
      await worker.onApplicationBootstrap();
      stops.push(() => worker.beforeApplicationShutdown());
      // Past the claim a worker makes as it starts: from here on only a wake-up finds new work in time.
      await sleep(500);
    });

    const markDone = (callId: string) =>
      dataSource
        .query(`UPDATE calls.post_call_jobs SET status = 'done', updated_at = now() WHERE call_id = $1`, [
          callId,
        ])
        .then(() => undefined);

    const endCall = () =>
      dataSource.transaction(async (em) => {
        const callId = await insertCall(em, 'completed');
        await enqueuePostCall(em, callId);
        return callId;
      });

    it('a call that ends is processed at once, not at the next poll', async () => {
      behaviour = markDone;
      const callId = await endCall();
      await waitFor(async () => (await jobOf(callId)).status === 'done', {
        timeoutMs: WAIT_MS,
        description: 'the job to be done',
      });
      expect(processed.filter((p) => p.callId === callId)).toEqual([{ callId, attempts: 1 }]);
    });

    it('a failed job is queued again with its backoff and the error', async () => {
      behaviour = () => Promise.reject(new Error('recording copy failed'));
      const callId = await endCall();
      const job = await waitFor(
        async () => {
          const j = await jobOf(callId);
          return j.last_error ? j : undefined;
        },
        { timeoutMs: WAIT_MS, description: 'the failure to be recorded' },
      );
      expect(job).toMatchObject({ status: 'queued', attempts: 1, last_error: 'recording copy failed' });
      // 2^attempts seconds after the failure.
      expect(Number(job.due_in)).toBeGreaterThan(0.5);
      expect(Number(job.due_in)).toBeLessThanOrEqual(2);
    });

    it('a stopping worker finishes the job it holds before it stops', async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      behaviour = async (callId) => {
        started();
        await sleep(1000);
        await markDone(callId);
      };
      const callId = await endCall();
      await running;
      await worker.beforeApplicationShutdown();
      expect((await jobOf(callId)).status).toBe('done');
    });
  });

  describe('carrier reconciliations', () => {
    const fetches: string[] = [];

    it('a callback the carrier cannot confirm wakes the worker, which retries with its backoff', async () => {
      // The carrier's REST API is down: the check fails every time.
      const carrier = {
        provider: 'carrier_a',
        fetchCall: async (call: Call) => {
          fetches.push(call.id);
          throw new Error('carrier unreachable');
        },
      } as unknown as CarrierAdapter;
      // Progress is only reached once the carrier answers, which it never does here.
      const progress = {} as CallProgressService;
      const reconciler = new CarrierReconciler(dataSource, new CarrierRegistry([carrier]), progress, config);
      const worker = new CarrierReconciliationWorker(dataSource, config, reconciler, progress);
      await worker.onApplicationBootstrap();
      stops.push(() => worker.beforeApplicationShutdown());

      const callId = await dataSource.transaction((em) => insertCall(em));
      const call = (await dataSource.getRepository(Call).findOneBy({ id: callId }))!;
      const hangup: RawCarrierEvent = {
        provider: 'carrier_a',
        kind: 'status',
        dedupeKey: 'completed',
        providerStatus: 'completed',
        providerEvent: null,
        sequence: null,
        ended: true,
        occurredAt: new Date(),
      };
      // The queued check wakes this process's worker at commit (its poll is far slower than the wait below).
      expect(await reconciler.apply(call, hangup)).toBeNull();

      const row = await waitFor(
        async () => {
          const [r] = (await dataSource.query(
            `SELECT status, attempts, last_error, extract(epoch FROM run_after - now()) AS due_in
             FROM calls.carrier_reconciliations WHERE call_id = $1`,
            [callId],
          )) as { status: string; attempts: number; last_error: string; due_in: number }[];
          // Claimed, the row is leased for a minute; recorded, it is due again after the retry delay.
          const recorded = r?.attempts === 1 && fetches.length === 2 && Number(r.due_in) < 30;
          return recorded ? r : undefined;
        },
        { timeoutMs: WAIT_MS, description: 'the worker to check again' },
      );
      expect(row).toMatchObject({ status: 'queued', last_error: 'carrier unreachable' });
      // CARRIER_RECONCILE_RETRY_MS after the first failed attempt.
      expect(Number(row.due_in)).toBeGreaterThan(10);
      expect(Number(row.due_in)).toBeLessThanOrEqual(15);
      const [flag] = (await dataSource.query(`SELECT carrier_reconciliation FROM calls.calls WHERE id = $1`, [
        callId,
      ])) as { carrier_reconciliation: string }[];
      expect(flag.carrier_reconciliation).toBe('pending');
    });
  });
});
