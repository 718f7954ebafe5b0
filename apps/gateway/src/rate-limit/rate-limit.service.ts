import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tableOf } from '@vap/persistence';

export interface RateLimitResult {
  count: number;
  resetAt: Date;
}

export const WINDOW_SECONDS = 60;

/**
 * The windows' tables: per API key and per account on partner routes, per console session (the console's
 * requests, with the account's under the `console` bucket), and per client address on the surfaces without
 * a key.
 */
const WINDOWS = {
  key: { table: 'rate_limit_windows', column: 'api_key_id' },
  account: { table: 'account_rate_limit_windows', column: 'partner_id' },
  session: { table: 'console_session_rate_limit_windows', column: 'session_key' },
  address: { table: 'address_rate_limit_windows', column: 'address' },
} as const;

/** The bucket of the console's requests: per session, and per account apart from the API's buckets. */
export const CONSOLE_BUCKET = 'console';

/**
 * A request counted against its own window (its key's, or its console session's) and its account's; a
 * reseller's request on behalf of a client also against the reseller's account window.
 */
export interface OwnAndAccountResult {
  own: RateLimitResult;
  account: RateLimitResult;
  reseller?: RateLimitResult;
}

/**
 * Counts requests per API key (or client address) and bucket in Postgres, so every gateway replica sees
 * the same count. One upsert per request: the window opens at the first request and lasts 60 s, so a
 * burst is never split across a calendar-minute boundary.
 */
@Injectable()
export class RateLimitService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Counts a partner request against its key's window and its account's, in one round trip; one a reseller's
   * key makes on behalf of a client (`resellerId`) against the reseller's account window as well, so that
   * acting for many clients never multiplies what the reseller may send.
   */
  hitKeyAndAccount(
    apiKeyId: string,
    partnerId: string,
    bucket: string,
    resellerId?: string,
  ): Promise<OwnAndAccountResult> {
    return this.hitWithAccount('key', apiKeyId, partnerId, bucket, resellerId);
  }

  /**
   * Counts a console request against its session's window and its account's console window (never an API
   * key's or the account's API windows), in one round trip.
   */
  hitConsoleSessionAndAccount(sessionKey: string, partnerId: string): Promise<OwnAndAccountResult> {
    return this.hitWithAccount('session', sessionKey, partnerId, CONSOLE_BUCKET);
  }

  private async hitWithAccount(
    kind: 'key' | 'session',
    id: string,
    partnerId: string,
    bucket: string,
    resellerId?: string,
  ): Promise<OwnAndAccountResult> {
    const reseller = resellerId
      ? {
          cte: `, r AS (${this.upsert('account', '$5', '$3', '$4')})`,
          select: ` UNION ALL SELECT 'reseller', request_count, reset_at FROM r`,
        }
      : { cte: '', select: '' };
    const rows = (await this.dataSource.query(
      `WITH o AS (${this.upsert(kind, '$1', '$3', '$4')}), a AS (${this.upsert('account', '$2', '$3', '$4')})${reseller.cte}
       SELECT 'own' AS kind, request_count, reset_at FROM o
       UNION ALL SELECT 'account', request_count, reset_at FROM a${reseller.select}`,
      resellerId
        ? [id, partnerId, bucket, WINDOW_SECONDS, resellerId]
        : [id, partnerId, bucket, WINDOW_SECONDS],
    )) as { kind: 'own' | 'account' | 'reseller'; request_count: number; reset_at: Date }[];
    const of = (kind: 'own' | 'account' | 'reseller'): RateLimitResult => {
      const row = rows.find((r) => r.kind === kind)!;
      return { count: Number(row.request_count), resetAt: new Date(row.reset_at) };
    };
    return { own: of('own'), account: of('account'), ...(resellerId ? { reseller: of('reseller') } : {}) };
  }

  hitAddress(address: string, bucket: string): Promise<RateLimitResult> {
    return this.count('address', address, bucket);
  }

  /**
   * Drops address and console-session windows long closed: any address can open one, and every session
   * does, so they must not pile up (keys and accounts are few and keep theirs).
   */
  async pruneWindows(): Promise<void> {
    for (const table of ['address_rate_limit_windows', 'console_session_rate_limit_windows']) {
      await this.dataSource.query(
        `DELETE FROM ${tableOf(this.dataSource, table)}
          WHERE window_started_at < clock_timestamp() - make_interval(secs => $1)`,
        [2 * WINDOW_SECONDS],
      );
    }
  }

  private async count(kind: keyof typeof WINDOWS, id: string, bucket: string): Promise<RateLimitResult> {
    const [row] = (await this.dataSource.query(this.upsert(kind, '$1', '$2', '$3'), [
      id,
      bucket,
      WINDOW_SECONDS,
    ])) as { request_count: number; reset_at: Date }[];
    return { count: Number(row.request_count), resetAt: new Date(row.reset_at) };
  }

  /** The one-row upsert that counts a request in a window (parameters: id, bucket, window seconds). */
  private upsert(kind: keyof typeof WINDOWS, id: string, bucket: string, secs: string): string {
    const { table, column } = WINDOWS[kind];
    return `INSERT INTO ${tableOf(this.dataSource, table)} AS w (${column}, bucket, window_started_at, request_count)
       VALUES (${id}, ${bucket}, clock_timestamp(), 1)
       ON CONFLICT (${column}, bucket) DO UPDATE SET
         request_count = CASE WHEN w.window_started_at <= clock_timestamp() - make_interval(secs => ${secs})
                              THEN 1 ELSE w.request_count + 1 END,
         window_started_at = CASE WHEN w.window_started_at <= clock_timestamp() - make_interval(secs => ${secs})
                                  THEN clock_timestamp() ELSE w.window_started_at END
       RETURNING request_count, window_started_at + make_interval(secs => ${secs}) AS reset_at`;
  }
}
