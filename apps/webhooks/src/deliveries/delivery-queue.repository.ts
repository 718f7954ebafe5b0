import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
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

/** A delivery enqueue() wrote; `token` is its claim when it was written claimed. */
export interface QueuedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  token: string | null;
}

/** Deliveries enqueue() writes claimed by a worker, for their first attempt. */
export interface InsertClaim {
  workerId: string;
  count: number;
  leaseMs: number;
}

/** What sending a delivery needs from its endpoint. */
export type DeliveryEndpoint = Pick<
  ClaimedDelivery,
  'url' | 'enabled' | 'secretSealed' | 'previousSecretSealed' | 'previousSecretExpiresAt'
>;

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

/** Settlements written in one statement, at most. */
const SETTLE_BATCH = 64;

interface PendingSettlement {
  claim: ClaimedDelivery;
  attempt: AttemptRecord;
  next: Settlement;
  resolve(): void;
  reject(err: unknown): void;
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
  /** Settlements waiting for the next statement (see settle). */
  private readonly settling: PendingSettlement[] = [];
  private settleTimer?: NodeJS.Immediate;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async claim(workerId: string, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const [rows] = (await this.dataSource.query(
      // Expired leases first, then due rows, each read in its partial index's order: one OR over both
      // would sort the whole backlog on every claim.
      `WITH expired AS (
         SELECT id FROM ${tableOf(this.dataSource, 'deliveries')}
         WHERE status = 'delivering' AND locked_until < now()
         ORDER BY locked_until
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       ),
       pending AS (
         SELECT id FROM ${tableOf(this.dataSource, 'deliveries')}
         WHERE status = 'pending' AND next_attempt_at <= now()
         ORDER BY next_attempt_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       ),
       due AS (SELECT id FROM expired UNION ALL SELECT id FROM pending LIMIT $2)
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
   * Records the attempt and the delivery's next state; throws LeaseLostError when the claim is no longer
   * ours. Settlements made in the same turn of the event loop share one statement (at most SETTLE_BATCH):
   * under load the queue's cost is round trips, not rows.
   */
  settle(claim: ClaimedDelivery, attempt: AttemptRecord, next: Settlement): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.settling.push({ claim, attempt, next, resolve, reject });
      if (this.settling.length >= SETTLE_BATCH) this.flushSettlements();
      else this.settleTimer ??= setImmediate(() => this.flushSettlements());
    });
  }

  private flushSettlements(): void {
    if (this.settleTimer) clearImmediate(this.settleTimer);
    this.settleTimer = undefined;
    const batch = this.settling.splice(0);
    if (batch.length === 0) return;
    this.settleAll(batch).then(
      (settled) => {
        for (const s of batch) {
          if (settled.has(s.claim.id)) s.resolve();
          else s.reject(new LeaseLostError(s.claim.id));
        }
      },
      (err: unknown) => {
        for (const s of batch) s.reject(err);
      },
    );
  }

  /** One statement for many settlements; returns the ids whose claim held (and whose attempt was recorded). */
  private async settleAll(batch: PendingSettlement[]): Promise<Set<string>> {
    const column = <T>(pick: (s: PendingSettlement) => T) => batch.map(pick);
    const rows = (await this.dataSource.query(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::int[],
                              $8::timestamptz[], $9::int[], $10::text[], $11::text[])
           AS t(id, token, status, delay_ms, status_code, error, attempt, started_at, latency_ms, outcome, response_body)
       ),
       settled AS (
         UPDATE ${tableOf(this.dataSource, 'deliveries')} d
         SET status = i.status,
             next_attempt_at = CASE WHEN i.status = 'pending' THEN now() + i.delay_ms * interval '1 millisecond' ELSE NULL END,
             completed_at = CASE WHEN i.status = 'pending' THEN NULL ELSE now() END,
             locked_by = NULL, locked_until = NULL, last_status_code = i.status_code, last_error = i.error,
             updated_at = now()
         FROM input i
         WHERE d.id = i.id AND d.locked_by = i.token
         RETURNING d.id
       )
       INSERT INTO ${tableOf(this.dataSource, 'delivery_attempts')}
         (delivery_id, attempt, started_at, latency_ms, status_code, outcome, response_body, error)
       SELECT i.id, i.attempt, i.started_at, i.latency_ms, i.status_code, i.outcome, i.response_body, i.error
       FROM input i JOIN settled USING (id)
       ON CONFLICT (delivery_id, attempt) DO NOTHING
       RETURNING delivery_id`,
      [
        column((s) => s.claim.id),
        column((s) => s.claim.token),
        column((s) => (s.next.kind === 'retry' ? 'pending' : s.next.kind)),
        column((s) => (s.next.kind === 'retry' ? s.next.delayMs : 0)),
        column((s) => s.attempt.statusCode),
        column((s) => s.attempt.error),
        column((s) => s.claim.attempts),
        column((s) => s.attempt.startedAt.toISOString()),
        column((s) => s.attempt.latencyMs),
        column((s) => (s.attempt.succeeded ? 'succeeded' : 'failed')),
        column((s) => s.attempt.responseBody),
      ],
    )) as { delivery_id: string }[];
    return new Set(rows.map((r) => r.delivery_id));
  }

  /**
   * Queues deliveries in the caller's transaction; an (event, endpoint) pair already queued is skipped. With
   * `claim`, the first `claim.count` deliveries are written claimed by that worker for their first attempt,
   * as claim() would leave them (their `token` is set): the worker sends them after commit without claiming.
   */
  async enqueue(
    em: EntityManager,
    deliveries: NewDelivery[],
    claim?: InsertClaim,
  ): Promise<QueuedDelivery[]> {
    if (deliveries.length === 0) return [];
    const column = (pick: (d: NewDelivery) => string | null) => deliveries.map(pick);
    const rows = (await em.query(
      `INSERT INTO ${tableOf(em, 'deliveries')}
         (id, partner_id, endpoint_id, event_id, event_type, agent_id, body, next_attempt_at,
          status, attempts, locked_by, locked_until)
       SELECT gen_random_uuid(), t.partner_id, t.endpoint_id, t.event_id, t.event_type, t.agent_id, t.body, now(),
              CASE WHEN t.n <= $7 THEN 'delivering' ELSE 'pending' END,
              CASE WHEN t.n <= $7 THEN 1 ELSE 0 END,
              CASE WHEN t.n <= $7 THEN $8 || ':' || gen_random_uuid() END,
              CASE WHEN t.n <= $7 THEN now() + $9 * interval '1 millisecond' END
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[]) WITH ORDINALITY
         AS t(partner_id, endpoint_id, event_id, event_type, agent_id, body, n)
       ON CONFLICT (event_id, endpoint_id) DO NOTHING
       RETURNING id, endpoint_id, event_id, locked_by`,
      [
        column((d) => d.partnerId),
        column((d) => d.endpointId),
        column((d) => d.eventId),
        column((d) => d.eventType),
        column((d) => d.agentId),
        column((d) => d.body),
        claim?.count ?? 0,
        claim?.workerId ?? null,
        claim?.leaseMs ?? 0,
      ],
    )) as { id: string; endpoint_id: string; event_id: string; locked_by: string | null }[];
    // At commit, so this process's workers wake exactly when the rows are visible.
    if (rows.some((r) => r.locked_by === null)) wakeAfterCommit(em, DELIVERIES_CHANNEL);
    return rows.map((r) => ({
      id: r.id,
      endpointId: r.endpoint_id,
      eventId: r.event_id,
      token: r.locked_by,
    }));
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
