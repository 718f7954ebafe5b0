import { EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { CallWorkQueue, notifyQueued } from '../work-queue/call-work-queue';

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
  await notifyQueued(em, POST_CALL_JOBS);
}
