import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '@vap/contracts';

/** How long a key is remembered; after that it may be used for a new request. */
const RETENTION = '24 hours';
/** How long an in-progress request holds its key before another may take over (crashed gateway). */
const LOCK_SECONDS = 60;
const WAIT_STEP_MS = 100;
const WAIT_MAX_MS = 15_000;

export type IdempotencyDecision = { kind: 'proceed' } | { kind: 'replay'; status: number; body: unknown };

interface KeyRow {
  request_hash: string;
  status: 'in_progress' | 'done';
  response_status: number | null;
  response_body: unknown;
}

/**
 * Idempotency keys per partner, in Postgres so that every gateway replica sees them. The first request
 * claims the key; a repeat with the same body gets the stored response (waiting while the first is still
 * running), a repeat with another body is 409 CONFLICT. Only successes are stored: after a failure the
 * key is released and the request may be retried.
 */
@Injectable()
export class IdempotencyService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async begin(partnerId: string, key: string, hash: string): Promise<IdempotencyDecision> {
    const deadline = Date.now() + WAIT_MAX_MS;
    for (;;) {
      if (await this.claim(partnerId, key, hash)) return { kind: 'proceed' };
      const row = await this.find(partnerId, key);
      if (!row) continue; // released or expired meanwhile: claim again
      if (row.request_hash !== hash) {
        throw AppError.conflict('This Idempotency-Key was already used with a different request');
      }
      if (row.status === 'done')
        return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body };
      if (Date.now() > deadline) {
        throw AppError.conflict('A request with this Idempotency-Key is still in progress; retry shortly');
      }
      await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
    }
  }

  async complete(partnerId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.dataSource.query(
      `UPDATE gateway.idempotency_keys SET status = 'done', response_status = $3, response_body = $4
        WHERE partner_id = $1 AND key = $2`,
      [partnerId, key, status, JSON.stringify(body ?? null)],
    );
  }

  async release(partnerId: string, key: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM gateway.idempotency_keys WHERE partner_id = $1 AND key = $2 AND status = 'in_progress'`,
      [partnerId, key],
    );
  }

  /** Inserts the key, or takes over an expired one (old, or in progress past its lock); true when ours. */
  private async claim(partnerId: string, key: string, hash: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `INSERT INTO gateway.idempotency_keys AS k (partner_id, key, request_hash, status, locked_until)
       VALUES ($1, $2, $3, 'in_progress', now() + make_interval(secs => $4))
       ON CONFLICT (partner_id, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, status = 'in_progress', response_status = NULL,
              response_body = NULL, locked_until = EXCLUDED.locked_until, created_at = now()
        WHERE k.created_at < now() - interval '${RETENTION}'
           OR (k.status = 'in_progress' AND k.locked_until < now())
       RETURNING 1`,
      [partnerId, key, hash, LOCK_SECONDS],
    )) as unknown[];
    return rows.length > 0;
  }

  private async find(partnerId: string, key: string): Promise<KeyRow | null> {
    const [row] = (await this.dataSource.query(
      `SELECT request_hash, status, response_status, response_body FROM gateway.idempotency_keys
        WHERE partner_id = $1 AND key = $2`,
      [partnerId, key],
    )) as KeyRow[];
    return row ?? null;
  }
}
