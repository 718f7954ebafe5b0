import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { tableOf, wakeAfterCommit } from '@vap/persistence';
import { DeliveryOrder } from './delivery-order';
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
  /** Its place among its call's deliveries to the endpoint; none for events sent without an order. */
  order?: DeliveryOrder | null;
}

/** Why a delivery was never sent (see enqueue). */
export const SUPERSEDED_ERROR =
  'not sent: a later status of this call had already been sent to this endpoint when this event arrived';

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
  /** Other deliveries of its call wait for this one to finish (see claim). */
  ordered: boolean;
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
  ordered: boolean;
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
 *
 * One call's deliveries to an endpoint (call.status.updated, then session.completed) go out in the call's
 * order: a delivery is claimed only when no earlier one of its call (lower order_seq) is still pending,
 * being sent or retrying, so a later status waits until the earlier one succeeds or is dead-lettered. The
 * check reads committed rows in the claim's own statement, so it holds across replicas.
 */
@Injectable()
export class DeliveryQueueRepository {
  /** Settlements waiting for the next statement (see settle). */
  private readonly settling: PendingSettlement[] = [];
  private settleTimer?: NodeJS.Immediate;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` due deliveries. A delivery whose call status follows one not queued yet (fan-out
   * handles events concurrently, on every replica, so the earlier event may still be on its way) waits up
   * to `orderWaitMs` from its queueing for that one to arrive, then goes out regardless: the earlier status
   * may never come (an endpoint created mid-call).
   */
  async claim(workerId: string, limit: number, leaseMs: number, orderWaitMs = 0): Promise<ClaimedDelivery[]> {
    const deliveries = tableOf(this.dataSource, 'deliveries');
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
         SELECT d.id FROM ${deliveries} d
         WHERE d.status = 'pending' AND d.next_attempt_at <= now()
           AND (d.order_key IS NULL OR (
             NOT EXISTS (
               SELECT 1 FROM ${deliveries} p
               WHERE p.endpoint_id = d.endpoint_id AND p.order_key = d.order_key AND p.order_seq < d.order_seq
                 AND p.status IN ('pending', 'delivering'))
             AND (d.order_after IS NULL OR d.created_at <= now() - $4 * interval '1 millisecond' OR EXISTS (
               SELECT 1 FROM ${deliveries} p
               WHERE p.endpoint_id = d.endpoint_id AND p.order_key = d.order_key AND p.order_seq = d.order_after))))
         ORDER BY d.next_attempt_at
         LIMIT $2
         FOR UPDATE OF d SKIP LOCKED
       ),
       due AS (SELECT id FROM expired UNION ALL SELECT id FROM pending LIMIT $2)
       UPDATE ${tableOf(this.dataSource, 'deliveries')} d
       SET status = 'delivering', attempts = d.attempts + 1, locked_by = $1 || ':' || gen_random_uuid(),
           locked_until = now() + $3 * interval '1 millisecond', updated_at = now()
       FROM due, ${tableOf(this.dataSource, 'endpoints')} e
       WHERE d.id = due.id AND e.id = d.endpoint_id
       RETURNING d.id, d.partner_id, d.endpoint_id, d.event_type, d.body, d.attempts, d.round_start, d.locked_by,
                 d.order_key IS NOT NULL AS ordered,
                 e.url, e.enabled, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at`,
      [workerId, limit, leaseMs, orderWaitMs],
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
      ordered: r.ordered,
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
   * `claim`, the first `claim.count` deliveries free to go are written claimed by that worker for their first
   * attempt, as claim() would leave them (their `token` is set): the worker sends them after commit without
   * claiming. A delivery that must wait for an earlier one of its call (queued, or in this batch) is free
   * only by claim(). One whose call already had a later status sent to this endpoint is written failed and
   * never sent: it would show the call going backwards (the partner can still send it with a manual retry).
   */
  async enqueue(
    em: EntityManager,
    deliveries: NewDelivery[],
    claim?: InsertClaim,
  ): Promise<QueuedDelivery[]> {
    if (deliveries.length === 0) return [];
    const table = tableOf(em, 'deliveries');
    const column = <T>(pick: (d: NewDelivery) => T) => deliveries.map(pick);
    const rows = (await em.query(
      `WITH input AS (
         SELECT t.*, row_number() OVER (PARTITION BY t.endpoint_id, t.order_key ORDER BY t.order_seq, t.n) AS in_call
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[],
                     $10::text[], $11::smallint[], $12::smallint[]) WITH ORDINALITY
           AS t(partner_id, endpoint_id, event_id, event_type, agent_id, body, order_key, order_seq, order_after, n)
       ),
       placed AS (
         SELECT i.*,
                i.order_key IS NOT NULL AND EXISTS (
                  SELECT 1 FROM ${table} l
                  WHERE l.endpoint_id = i.endpoint_id AND l.order_key = i.order_key AND l.order_seq > i.order_seq
                    AND l.attempts > 0) AS superseded,
                i.order_key IS NULL OR (
                  i.in_call = 1
                  AND NOT EXISTS (
                    SELECT 1 FROM ${table} p
                    WHERE p.endpoint_id = i.endpoint_id AND p.order_key = i.order_key AND p.order_seq < i.order_seq
                      AND p.status IN ('pending', 'delivering'))
                  AND (i.order_after IS NULL OR EXISTS (
                    SELECT 1 FROM ${table} p
                    WHERE p.endpoint_id = i.endpoint_id AND p.order_key = i.order_key
                      AND p.order_seq = i.order_after))) AS free
         FROM input i
       ),
       slotted AS (
         SELECT p.*, CASE WHEN p.free AND NOT p.superseded
                          THEN row_number() OVER (PARTITION BY p.free AND NOT p.superseded ORDER BY p.n) END AS slot
         FROM placed p
       )
       INSERT INTO ${table}
         (id, partner_id, endpoint_id, event_id, event_type, agent_id, body, next_attempt_at,
          status, attempts, locked_by, locked_until, order_key, order_seq, order_after, completed_at, last_error)
       SELECT gen_random_uuid(), s.partner_id, s.endpoint_id, s.event_id, s.event_type, s.agent_id, s.body,
              CASE WHEN s.superseded THEN NULL ELSE now() END,
              CASE WHEN s.superseded THEN 'failed' WHEN s.slot <= $7 THEN 'delivering' ELSE 'pending' END,
              CASE WHEN s.slot <= $7 THEN 1 ELSE 0 END,
              CASE WHEN s.slot <= $7 THEN $8 || ':' || gen_random_uuid() END,
              CASE WHEN s.slot <= $7 THEN now() + $9 * interval '1 millisecond' END,
              s.order_key, s.order_seq, s.order_after,
              CASE WHEN s.superseded THEN now() END,
              CASE WHEN s.superseded THEN $13 END
       FROM slotted s
       ORDER BY s.n
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
        column((d) => d.order?.key ?? null),
        column((d) => d.order?.seq ?? null),
        column((d) => d.order?.after ?? null),
        SUPERSEDED_ERROR,
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
