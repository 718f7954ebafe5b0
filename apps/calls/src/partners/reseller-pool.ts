import { EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { effectiveConcurrencyLimit } from './partner-lock';

/** The live calls of a reseller and all its clients together, and the reseller's limit on them. */
export interface ResellerPool {
  resellerId: string;
  active: number;
  limit: number;
}

/**
 * The reseller pool an admission of the partner counts in, locked until the transaction ends: the
 * partner's reseller's when it is a client, its own when it has clients; null for any other account, or
 * while the reseller's limit is not known yet (the account's own limit still applies). Admissions of a
 * reseller and all its clients queue on one advisory lock, taken before the partner's count
 * (lockActiveCalls: one order everywhere); ends never take it, so the sum read under it can only fall.
 */
export async function lockResellerPool(em: EntityManager, partnerId: string): Promise<ResellerPool | null> {
  const standing = tableOf(em, 'partner_standing');
  const [own] = (await em.query(
    `SELECT COALESCE(s.reseller_id,
                     CASE WHEN EXISTS (SELECT 1 FROM ${standing} c WHERE c.reseller_id = s.partner_id)
                          THEN s.partner_id END) AS reseller_id
       FROM ${standing} s WHERE s.partner_id = $1`,
    [partnerId],
  )) as { reseller_id: string | null }[];
  const resellerId = own?.reseller_id ?? null;
  if (!resellerId) return null;
  await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`calls:reseller:${resellerId}`]);
  const [row] = (await em.query(
    `SELECT r.concurrency_limit,
            (SELECT COALESCE(sum(a.active), 0)::int FROM ${tableOf(em, 'partner_active_calls')} a
              WHERE a.partner_id = $1
                 OR a.partner_id IN (SELECT partner_id FROM ${standing} WHERE reseller_id = $1)) AS active
       FROM ${standing} r WHERE r.partner_id = $1`,
    [resellerId],
  )) as { concurrency_limit: number | null; active: number }[];
  if (row?.concurrency_limit == null) return null;
  return { resellerId, active: row.active, limit: effectiveConcurrencyLimit(row.concurrency_limit) };
}

/** 429 LIMIT_REACHED when the reseller's pool has no free slot (after the account's own check). */
export function assertPoolRoom(pool: ResellerPool | null): void {
  if (pool && pool.active >= pool.limit) {
    throw new AppError(
      ErrorCode.LIMIT_REACHED,
      `Reseller concurrency limit reached: ${pool.active} of ${pool.limit} calls of the reseller and all its clients together are active; start again when one ends`,
    );
  }
}
