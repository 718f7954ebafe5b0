import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tableOf } from '@vap/persistence';

export interface RateLimitResult {
  count: number;
  resetAt: Date;
}

export const WINDOW_SECONDS = 60;

/** The windows' tables: per API key, and per client address on the surfaces without a key. */
const WINDOWS = {
  key: { table: 'rate_limit_windows', column: 'api_key_id' },
  address: { table: 'address_rate_limit_windows', column: 'address' },
} as const;

/**
 * Counts requests per API key (or client address) and bucket in Postgres, so every gateway replica sees
 * the same count. One upsert per request: the window opens at the first request and lasts 60 s, so a
 * burst is never split across a calendar-minute boundary.
 */
@Injectable()
export class RateLimitService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  hit(apiKeyId: string, bucket: string): Promise<RateLimitResult> {
    return this.count('key', apiKeyId, bucket);
  }

  hitAddress(address: string, bucket: string): Promise<RateLimitResult> {
    return this.count('address', address, bucket);
  }

  /** Drops address windows long closed: any address can open one, so they must not pile up. */
  async pruneAddressWindows(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${tableOf(this.dataSource, 'address_rate_limit_windows')}
        WHERE window_started_at < clock_timestamp() - make_interval(secs => $1)`,
      [2 * WINDOW_SECONDS],
    );
  }

  private async count(kind: keyof typeof WINDOWS, id: string, bucket: string): Promise<RateLimitResult> {
    const { table, column } = WINDOWS[kind];
    const [row] = (await this.dataSource.query(
      `INSERT INTO ${tableOf(this.dataSource, table)} AS w (${column}, bucket, window_started_at, request_count)
       VALUES ($1, $2, clock_timestamp(), 1)
       ON CONFLICT (${column}, bucket) DO UPDATE SET
         request_count = CASE WHEN w.window_started_at <= clock_timestamp() - make_interval(secs => $3)
                              THEN 1 ELSE w.request_count + 1 END,
         window_started_at = CASE WHEN w.window_started_at <= clock_timestamp() - make_interval(secs => $3)
                                  THEN clock_timestamp() ELSE w.window_started_at END
       RETURNING request_count, window_started_at + make_interval(secs => $3) AS reset_at`,
      [id, bucket, WINDOW_SECONDS],
    )) as { request_count: number; reset_at: Date }[];
    return { count: Number(row.request_count), resetAt: new Date(row.reset_at) };
  }
}
