import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';

export interface AttemptRow {
  id: string;
  campaign_id: string;
  contact_id: string;
  partner_id: string;
  attempt: number;
  is_retry: boolean;
  call_id: string | null;
  status: 'dialing' | 'active' | 'ended' | 'abandoned';
  call_status: string | null;
  lease_until: Date;
  created_at: Date;
  ended_at: Date | null;
}

/** SQL of campaigns.attempts: linking calls, releasing claims that placed no call. */
@Injectable()
export class AttemptsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The attempt a call names by its client_reference_id, which the caller chose: only the calling
   * partner's own, so another account's call can never link to or settle it.
   */
  async lockOfPartner(em: EntityManager, partnerId: string, id: string): Promise<AttemptRow | null> {
    const [row] = (await em.query(
      `SELECT * FROM ${tableOf(em, 'attempts')} WHERE id = $1 AND partner_id = $2 FOR UPDATE`,
      [id, partnerId],
    )) as AttemptRow[];
    return row ?? null;
  }

  /** An attempt by the id the platform itself holds (claims, stale-claim reconciliation). */
  async lock(em: EntityManager, id: string): Promise<AttemptRow | null> {
    const [row] = (await em.query(`SELECT * FROM ${tableOf(em, 'attempts')} WHERE id = $1 FOR UPDATE`, [
      id,
    ])) as AttemptRow[];
    return row ?? null;
  }

  /** Records the call the calls service placed; a status event may have done so already. */
  async linkCall(id: string, callId: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.query(
      `UPDATE ${tableOf(em, 'attempts')} SET call_id = $2, status = CASE WHEN status = 'dialing' THEN 'active' ELSE status END
       WHERE id = $1 AND call_id IS NULL`,
      [id, callId],
    );
  }

  /**
   * An attempt that placed no call gives its slot back and its contact returns to where it was (pending
   * or retry_wait), due again at `dueAt`; the attempt does not count. null when it had a call after all.
   */
  /**
   * Undoes a claim the calls service refused without a call: the contact is due again at `dueAt`, waiting
   * for `waitReason` (the contact policy's code) when that says why.
   */
  async release(
    em: EntityManager,
    id: string,
    dueAt: Date,
    waitReason: string | null = null,
  ): Promise<AttemptRow | null> {
    const attempt = await this.abandon(em, id);
    if (!attempt) return null;
    await em.query(
      `UPDATE ${tableOf(em, 'contacts')} SET attempts = attempts - 1,
         status = CASE WHEN attempts - 1 > 0 THEN 'retry_wait' ELSE 'pending' END,
         next_attempt_at = $2, wait_reason = $3, updated_at = now()
       WHERE id = $1 AND status = 'dialing'`,
      [attempt.contact_id, dueAt, waitReason],
    );
    return attempt;
  }

  /**
   * Ends a claim the calls service refused without a call, leaving its contact as it is (the caller settles
   * it: release() makes it due again; a skip finishes it). Null when the claim is no longer open.
   */
  async abandon(em: EntityManager, id: string): Promise<AttemptRow | null> {
    const attempt = await this.lock(em, id);
    if (!attempt || attempt.status !== 'dialing' || attempt.call_id) return null;
    await em.query(
      `UPDATE ${tableOf(em, 'attempts')} SET status = 'abandoned', ended_at = now() WHERE id = $1`,
      [id],
    );
    return attempt;
  }

  async extendLease(id: string, until: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'attempts')} SET lease_until = $2 WHERE id = $1`,
      [id, until],
    );
  }

  /** Claims that placed no known call within their lease. */
  async staleClaims(now: Date, limit: number): Promise<AttemptRow[]> {
    return (await this.dataSource.query(
      `SELECT * FROM ${tableOf(this.dataSource, 'attempts')} WHERE status = 'dialing' AND call_id IS NULL AND lease_until < $1
       ORDER BY lease_until LIMIT $2`,
      [now, limit],
    )) as AttemptRow[];
  }
}
