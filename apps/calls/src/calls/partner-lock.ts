import { EntityManager } from 'typeorm';
import { AccountConcurrency, ACTIVE_CALL_STATUSES } from '@vap/contracts';
import { tableOf } from '@vap/persistence';

/**
 * Serialises, per partner, everything that changes how many calls are active: starts and status moves.
 * Held to the end of the transaction, so the count a start checks cannot change until it commits.
 */
export async function lockPartnerCalls(em: EntityManager, partnerId: string): Promise<void> {
  await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`calls:${partnerId}`]);
}

export async function countActiveCalls(em: EntityManager, partnerId: string): Promise<number> {
  const [row] = (await em.query(
    `SELECT count(*)::int AS active FROM ${tableOf(em, 'calls')} WHERE partner_id = $1 AND status = ANY($2)`,
    [partnerId, ACTIVE_CALL_STATUSES],
  )) as { active: number }[];
  return row.active;
}

/** The account_concurrency of an event; a null limit means an unlimited account. */
export function accountConcurrency(limit: number | null, active: number): AccountConcurrency {
  return { limit, active, remaining: limit === null ? null : Math.max(0, limit - active) };
}
