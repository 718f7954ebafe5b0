import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface RateLimitResult {
  count: number;
  resetAt: Date;
}

export const WINDOW_SECONDS = 60;

/**
 * Counts requests per API key and bucket in Postgres, so every gateway replica sees the same count. One
 * upsert per request: the window opens at the key's first request and lasts 60 s, so a burst is never
 * split across a calendar-minute boundary.
 */
@Injectable()
export class RateLimitService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async hit(apiKeyId: string, bucket: string): Promise<RateLimitResult> {
    const [row] = (await this.dataSource.query(
      `INSERT INTO gateway.rate_limit_windows AS w (api_key_id, bucket, window_started_at, request_count)
       VALUES ($1, $2, clock_timestamp(), 1)
       ON CONFLICT (api_key_id, bucket) DO UPDATE SET
         request_count = CASE WHEN w.window_started_at <= clock_timestamp() - make_interval(secs => $3)
                              THEN 1 ELSE w.request_count + 1 END,
         window_started_at = CASE WHEN w.window_started_at <= clock_timestamp() - make_interval(secs => $3)
                                  THEN clock_timestamp() ELSE w.window_started_at END
       RETURNING request_count, window_started_at + make_interval(secs => $3) AS reset_at`,
      [apiKeyId, bucket, WINDOW_SECONDS],
    )) as { request_count: number; reset_at: Date }[];
    return { count: Number(row.request_count), resetAt: new Date(row.reset_at) };
  }
}
