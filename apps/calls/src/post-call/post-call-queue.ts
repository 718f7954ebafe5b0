import { EntityManager } from 'typeorm';

/** Queues post-call processing of an ended call, once; runs in the caller's transaction. */
export async function enqueuePostCall(em: EntityManager, callId: string): Promise<void> {
  await em.query(`INSERT INTO calls.post_call_jobs (call_id) VALUES ($1) ON CONFLICT (call_id) DO NOTHING`, [
    callId,
  ]);
}
