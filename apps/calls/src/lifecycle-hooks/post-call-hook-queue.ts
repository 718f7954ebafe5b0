import { EntityManager } from 'typeorm';
import { PostCallHookResultDto } from '@vap/api';
import { SessionCompletedData } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { CallWorkQueue, notifyQueued } from '../work-queue/call-work-queue';

export const POST_CALL_HOOK_JOBS: CallWorkQueue = {
  table: 'post_call_hook_jobs',
  channel: 'calls_post_call_hook_jobs',
  // Longer than the longest post-call hook timeout, so a live request is never claimed twice.
  leaseSeconds: 90,
  columns: ['hook_id', 'payload'],
};

/** Seconds before retry n (1-based) of a failed post-call hook request: 2, 4, 8, 16. */
export function postCallHookBackoffSeconds(attempt: number): number {
  return 2 ** Math.max(1, attempt);
}

/** The session's post_call_hook before the first request. */
export function pendingPostCallHook(hookId: string): PostCallHookResultDto {
  return {
    hook_id: hookId,
    status: 'pending',
    outcome: null,
    http_status: null,
    response: null,
    attempts: 0,
    completed_at: null,
  };
}

/**
 * Queues the post-call hook request of a completed session, once, in the transaction that completes it:
 * the body is the session as session.completed reports it, so the hook and the event say the same.
 */
export async function enqueuePostCallHook(
  em: EntityManager,
  callId: string,
  hookId: string,
  session: SessionCompletedData,
): Promise<void> {
  await em.query(
    `INSERT INTO ${tableOf(em, 'post_call_hook_jobs')} (call_id, hook_id, payload) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (call_id) DO NOTHING`,
    [callId, hookId, JSON.stringify(session)],
  );
  notifyQueued(em, POST_CALL_HOOK_JOBS);
}
