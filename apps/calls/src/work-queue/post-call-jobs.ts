import { EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { CallWorkQueue, notifyQueued } from './call-work-queue';

export const POST_CALL_JOBS: CallWorkQueue = {
  table: 'post_call_jobs',
  channel: 'calls_post_call_jobs',
  leaseSeconds: 120,
};

/** Queues post-call processing of an ended call, once; runs in the caller's transaction. */
export async function enqueuePostCall(em: EntityManager, callId: string): Promise<void> {
  await em.query(
    `INSERT INTO ${tableOf(em, 'post_call_jobs')} (call_id) VALUES ($1) ON CONFLICT (call_id) DO NOTHING`,
    [callId],
  );
  notifyQueued(em, POST_CALL_JOBS);
}

/** Runs a queued post-call job of the call now (it was waiting for something that has arrived). */
export async function wakePostCall(em: EntityManager, callId: string): Promise<void> {
  const woken: unknown[] = await em.query(
    `UPDATE ${tableOf(em, 'post_call_jobs')} SET run_after = now() WHERE call_id = $1 AND status = 'queued'
     RETURNING call_id`,
    [callId],
  );
  if (woken.length) notifyQueued(em, POST_CALL_JOBS);
}
