import { EntityManager } from 'typeorm';

/**
 * One advisory lock per account orders the additions to its do-not-call list against the admissions of its
 * calls, to the end of the transaction. Admissions share it (they never wait for one another); a write that
 * adds entries takes it alone. So the probe an admission makes inside its lock sees every entry committed
 * before it, and an entry added while an admission holds the lock waits for that call to be admitted first:
 * no call is admitted after the entry that covers it was committed.
 */
const key = (partnerId: string) => `calls:do_not_call:${partnerId}`;

/** An admission's share of the lock (taken after the number's lock, before the partner's count). */
export async function shareDoNotCallList(em: EntityManager, partnerId: string): Promise<void> {
  await em.query('SELECT pg_advisory_xact_lock_shared(hashtext($1))', [key(partnerId)]);
}

/** The lock of a write that adds entries: waits for the admissions under way, holds back the next ones. */
export async function lockDoNotCallList(em: EntityManager, partnerId: string): Promise<void> {
  await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key(partnerId)]);
}
