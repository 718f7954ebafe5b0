import { EntityManager } from 'typeorm';
import { AccountConcurrency } from '@vap/messages';
import { tableOf } from '@vap/persistence';

/**
 * Each partner's active calls are counted in a row of partner_active_calls that a trigger on calls keeps
 * (migration 1764300010000): a call's insert or status change moves the count in its own transaction.
 */

/**
 * Locks the partner's count until the transaction ends and answers it: what an admission checks its limit
 * against. Admissions of one partner queue here; moves that keep a call active never take this lock.
 */
export async function lockActiveCalls(em: EntityManager, partnerId: string): Promise<number> {
  const table = tableOf(em, 'partner_active_calls');
  const [row] = (await em.query(
    `INSERT INTO ${table} AS c (partner_id, active) VALUES ($1, 0)
       ON CONFLICT (partner_id) DO UPDATE SET active = c.active
     RETURNING active`,
    [partnerId],
  )) as { active: number }[];
  return row.active;
}

/**
 * Serialises the admissions of one number of a partner (and of one Idempotency-Key, which may name another
 * number), to the end of the transaction: what the frequency caps count and what a key binds. Key first,
 * then number, then the do-not-call list's share (shareDoNotCallList), then the reseller's pool
 * (lockResellerPool), then the partner's count (lockActiveCalls): one order everywhere, so no deadlock.
 */
export async function lockDialTarget(
  em: EntityManager,
  partnerId: string,
  number: string,
  key: string | null,
): Promise<void> {
  if (key !== null)
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`calls:key:${partnerId}:${key}`]);
  await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`calls:number:${partnerId}:${number}`]);
}

/**
 * The partner's count as this transaction sees it: after a call's move in the same transaction, that
 * move's own count (the trigger's update holds the row until commit, so ends are counted one at a time).
 */
export async function readActiveCalls(em: EntityManager, partnerId: string): Promise<number> {
  const [row] = (await em.query(
    `SELECT active FROM ${tableOf(em, 'partner_active_calls')} WHERE partner_id = $1`,
    [partnerId],
  )) as { active: number }[];
  return row?.active ?? 0;
}

/** The limit of an account whose concurrency_limit is not set (0). */
const DEFAULT_CONCURRENCY_LIMIT = 5;

/** The number of calls an account may have active at once. */
export function effectiveConcurrencyLimit(accountLimit: number): number {
  return accountLimit > 0 ? accountLimit : DEFAULT_CONCURRENCY_LIMIT;
}

/** The account_concurrency of an event; a null limit means an unlimited account. */
export function accountConcurrency(limit: number | null, active: number): AccountConcurrency {
  return { limit, active, remaining: limit === null ? null : Math.max(0, limit - active) };
}
