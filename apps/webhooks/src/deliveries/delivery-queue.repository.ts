import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { tableOf, wakeAfterCommit } from '@vap/persistence';
import { LeaseLostError } from './lease-lost.error';

/** The channel that wakes idle workers when deliveries are queued (wakeAfterCommit). */
export const DELIVERIES_CHANNEL = 'webhooks_deliveries';

export interface NewDelivery {
  partnerId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  agentId: string | null;
  /** The exact JSON body; every attempt sends these bytes. */
  body: string;
}

/** A delivery claimed for one attempt, with what sending it needs from its endpoint. */
export interface ClaimedDelivery {
  id: string;
  partnerId: string;
  endpointId: string;
  eventType: string;
  body: string;
  /** Attempts so far, this one included. */
  attempts: number;
  /** Attempts made in the current round (a manual retry starts a new round of the schedule). */
  attemptsInRound: number;
  token: string;
  url: string;
  enabled: boolean;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
}

export interface AttemptRecord {
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  succeeded: boolean;
  responseBody: string | null;
  error: string | null;
}

/** What happens to the delivery after an attempt. */
export type Settlement = { kind: 'succeeded' } | { kind: 'retry'; delayMs: number } | { kind: 'failed' };

interface ClaimedRow {
  id: string;
  partner_id: string;
  endpoint_id: string;
  event_type: string;
  body: string;
  attempts: number;
  round_start: number;
  locked_by: string;
  url: string;
  enabled: boolean;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * The delivery queue in Postgres: one row per (event, endpoint). Workers claim due rows with FOR UPDATE
 * SKIP LOCKED, so replicas never send the same attempt twice; a claim is a lease, and a row whose lease ran
 * out (its replica died mid-send) is claimed again: at-least-once, with the same delivery id. Every write
 * after the claim is fenced by the claim's token.
 */
@Injectable()
export class DeliveryQueueRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async claim(workerId: string, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const [rows] = (await this.dataSource.query(
      `WITH due AS (
         SELECT id FROM ${tableOf(this.dataSource, 'deliveries')}
         WHERE (status = 'pending' AND next_attempt_at <= now())
            OR (status = 'delivering' AND locked_until < now())
         ORDER BY next_attempt_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       )
       UPDATE ${tableOf(this.dataSource, 'deliveries')} d
       SET status = 'delivering', attempts = d.attempts + 1, locked_by = $1 || ':' || gen_random_uuid(),
           locked_until = now() + $3 * interval '1 millisecond', updated_at = now()
       FROM due, ${tableOf(this.dataSource, 'endpoints')} e
       WHERE d.id = due.id AND e.id = d.endpoint_id
       RETURNING d.id, d.partner_id, d.endpoint_id, d.event_type, d.body, d.attempts, d.round_start, d.locked_by,
                 e.url, e.enabled, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at`,
      [workerId, limit, leaseMs],
    )) as [ClaimedRow[], number];
    return rows.map((r) => ({
      id: r.id,
      partnerId: r.partner_id,
      endpointId: r.endpoint_id,
      eventType: r.event_type,
      body: r.body,
      attempts: r.attempts,
      attemptsInRound: r.attempts - r.round_start,
      token: r.locked_by,
      url: r.url,
      enabled: r.enabled,
      secretSealed: r.secret_sealed,
      previousSecretSealed: r.previous_secret_sealed,
      previousSecretExpiresAt: r.previous_secret_expires_at,
    }));
  }

  /** Extends the lease of a delivery being sent; false when the claim is no longer this one. */
  async renew(claim: ClaimedDelivery, leaseMs: number): Promise<boolean> {
    const [, count] = (await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'deliveries')} SET locked_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND locked_by = $2 AND status = 'delivering'`,
      [claim.id, claim.token, leaseMs],
    )) as [unknown, number];
    return count === 1;
  }

  /**
   * Records the attempt and the delivery's next state in one statement (no transaction round trips on the
   * hot path); throws LeaseLostError when the claim is no longer ours.
   */
  async settle(claim: ClaimedDelivery, attempt: AttemptRecord, next: Settlement): Promise<void> {
    const status = next.kind === 'retry' ? 'pending' : next.kind;
    const rows = (await this.dataSource.query(
      `WITH settled AS (
         UPDATE ${tableOf(this.dataSource, 'deliveries')}
         SET status = $3::text,
             next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + $4 * interval '1 millisecond' ELSE NULL END,
             completed_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END,
             locked_by = NULL, locked_until = NULL, last_status_code = $5::int, last_error = $6::text, updated_at = now()
         WHERE id = $1 AND locked_by = $2
         RETURNING id
       )
       INSERT INTO ${tableOf(this.dataSource, 'delivery_attempts')}
         (delivery_id, attempt, started_at, latency_ms, status_code, outcome, response_body, error)
       SELECT id, $7::int, $8::timestamptz, $9::int, $5::int, $10::text, $11::text, $6::text FROM settled
       ON CONFLICT (delivery_id, attempt) DO NOTHING
       RETURNING delivery_id`,
      [
        claim.id,
        claim.token,
        status,
        next.kind === 'retry' ? next.delayMs : 0,
        attempt.statusCode,
        attempt.error,
        claim.attempts,
        attempt.startedAt,
        attempt.latencyMs,
        attempt.succeeded ? 'succeeded' : 'failed',
        attempt.responseBody,
      ],
    )) as unknown[];
    if (rows.length !== 1) throw new LeaseLostError(claim.id);
  }

  /** Queues deliveries in the caller's transaction; an (event, endpoint) pair already queued is skipped. */
  async enqueue(em: EntityManager, deliveries: NewDelivery[]): Promise<string[]> {
    if (deliveries.length === 0) return [];
    const params: unknown[] = [];
    const values = deliveries.map((d) => {
      params.push(randomUUID(), d.partnerId, d.endpointId, d.eventId, d.eventType, d.agentId, d.body);
      const n = params.length;
      return `($${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}, now())`;
    });
    const rows = (await em.query(
      `INSERT INTO ${tableOf(em, 'deliveries')} (id, partner_id, endpoint_id, event_id, event_type, agent_id, body, next_attempt_at)
       VALUES ${values.join(', ')}
       ON CONFLICT (event_id, endpoint_id) DO NOTHING
       RETURNING id`,
      params,
    )) as { id: string }[];
    // At commit, so this process's workers wake exactly when the rows are visible.
    if (rows.length) wakeAfterCommit(em, DELIVERIES_CHANNEL);
    return rows.map((r) => r.id);
  }

  /** Queue depth by state, for the metrics gauge. */
  async depth(): Promise<Record<string, number>> {
    const rows: { state: string; n: string }[] = await this.dataSource.query(
      `SELECT CASE WHEN status = 'delivering' THEN 'delivering'
                   WHEN next_attempt_at <= now() THEN 'due' ELSE 'scheduled' END AS state,
              count(*) AS n
         FROM ${tableOf(this.dataSource, 'deliveries')} WHERE status IN ('pending', 'delivering') GROUP BY 1`,
    );
    const depth: Record<string, number> = { due: 0, scheduled: 0, delivering: 0 };
    for (const r of rows) depth[r.state] = Number(r.n);
    return depth;
  }
}
