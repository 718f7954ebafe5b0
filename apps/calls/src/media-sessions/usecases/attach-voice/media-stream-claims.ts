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
   * True the first time `nonce` is claimed; false when a stream was already opened with it. `em`: the
   * transaction the claim belongs to (the attach's, so a refused attach leaves the nonce unclaimed).
   */
  async claim(nonce: string, callId: string, em: EntityManager = this.dataSource.manager): Promise<boolean> {
    const table = tableOf(em, 'media_stream_claims');
    const rows = (await em.query(
      `INSERT INTO ${table} (nonce, call_id) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING RETURNING nonce`,
      [nonce, callId],
    )) as unknown[];
    // Pruning rides on claims (an index range scan), so the table holds about an hour of streams.
    await em.query(`DELETE FROM ${table} WHERE claimed_at < now() - make_interval(secs => $1)`, [
      CLAIM_RETENTION_SECS,
    ]);
    return rows.length === 1;
  }
}
