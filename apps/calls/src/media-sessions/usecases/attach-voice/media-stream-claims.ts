import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';

/**
 * Claims older than this are pruned: far longer than any stream token lives (MEDIA_STREAM_TOKEN_TTL_MS is
 * at most 10 minutes), so a pruned nonce's token has expired and is refused by its expiry anyway.
 */
export const CLAIM_RETENTION_SECS = 3600;

/**
 * Single use of media-stream tokens across every replica: the first claim of a nonce inserts its row,
 * every later one finds it (INSERT ... ON CONFLICT DO NOTHING, no lock held between replicas).
 */
@Injectable()
export class MediaStreamClaims {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * `claimed` the first time `nonce` is claimed; `retried` when the same attempt (`attemptId`, one per voice
   * upgrade) claimed it for this call before (its answer was lost); `spent` when a stream was already opened
   * with it. `em`: the transaction the claim belongs to (the attach's, so a refused attach leaves the nonce
   * unclaimed).
   */
  async claim(
    nonce: string,
    callId: string,
    em: EntityManager = this.dataSource.manager,
    attemptId: string | null = null,
  ): Promise<'claimed' | 'retried' | 'spent'> {
    const table = tableOf(em, 'media_stream_claims');
    const rows = (await em.query(
      `INSERT INTO ${table} (nonce, call_id, attempt_id) VALUES ($1, $2, $3)
         ON CONFLICT (nonce) DO NOTHING RETURNING nonce`,
      [nonce, callId, attemptId],
    )) as unknown[];
    let outcome: 'claimed' | 'retried' | 'spent' = rows.length === 1 ? 'claimed' : 'spent';
    if (outcome === 'spent' && attemptId) {
      const same = (await em.query(
        `SELECT 1 FROM ${table} WHERE nonce = $1 AND call_id = $2 AND attempt_id = $3`,
        [nonce, callId, attemptId],
      )) as unknown[];
      if (same.length) outcome = 'retried';
    }
    // Pruning rides on claims (an index range scan), so the table holds about an hour of streams.
    await em.query(`DELETE FROM ${table} WHERE claimed_at < now() - make_interval(secs => $1)`, [
      CLAIM_RETENTION_SECS,
    ]);
    return outcome;
  }
}
