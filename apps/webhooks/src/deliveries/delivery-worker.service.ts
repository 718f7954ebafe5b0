import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { EntityManager } from 'typeorm';
import { afterTransaction, ClaimLoop } from '@vap/persistence';
import { parseDuration, parseDurationList } from '../config/duration';
import { WebhooksConfig } from '../config/webhooks.config';
import { EndpointSecrets } from '../endpoints/endpoint-secrets';
import {
  AttemptRecord,
  ClaimedDelivery,
  DELIVERIES_CHANNEL,
  DeliveryEndpoint,
  DeliveryQueueRepository,
  NewDelivery,
  Settlement,
} from './delivery-queue.repository';
import { DeliverySender, SendOutcome, SigningSecrets } from './delivery-sender';
import { EndpointHealthService } from './endpoint-health.service';
import { LeaseLostError } from './lease-lost.error';
import { nextRetryDelay, RetryPolicyOptions } from './retry-policy';
import { deliveryAttempts, deliveryLatency, measureQueueDepthWith } from './delivery.metrics';

const TEST_EVENT = 'webhook.test';

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}

/**
 * Sends due deliveries from this replica, up to WEBHOOK_WORKER_CONCURRENCY at once, each independently:
 * a slow or failing endpoint holds one slot and its own schedule, never another delivery. Wakes when
 * deliveries queued in this process commit and polls for due retries and expired leases.
 */
@Injectable()
export class DeliveryWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly retryPolicy: RetryPolicyOptions;
  private readonly loop: ClaimLoop<ClaimedDelivery>;

  constructor(
    private readonly queue: DeliveryQueueRepository,
    private readonly sender: DeliverySender,
    private readonly secrets: EndpointSecrets,
    private readonly health: EndpointHealthService,
    private readonly config: WebhooksConfig,
  ) {
    this.retryPolicy = {
      schedule: parseDurationList(config.WEBHOOK_RETRY_SCHEDULE) ?? [],
      jitter: config.WEBHOOK_RETRY_JITTER,
      retryAfterMaxMs: parseDuration(config.WEBHOOK_RETRY_AFTER_MAX) ?? 3_600_000,
    };
    this.loop = new ClaimLoop({
      label: 'webhook deliveries',
      channel: DELIVERIES_CHANNEL,
      pollMs: config.WEBHOOK_POLL_MS,
      concurrency: config.WEBHOOK_WORKER_CONCURRENCY,
      claim: (limit) =>
        this.queue.claim(
          this.workerId,
          limit,
          this.config.WEBHOOK_LEASE_MS,
          this.config.WEBHOOK_ORDER_WAIT_MS,
        ),
      // A send slower than the lease stays this replica's: without renewal another one would send it again.
      lease: {
        renewEveryMs: Math.floor(config.WEBHOOK_LEASE_MS / 3),
        renew: (delivery) => this.queue.renew(delivery, this.config.WEBHOOK_LEASE_MS),
      },
      run: (delivery, leaseLost) =>
        this.attempt(delivery, leaseLost).catch((err) => {
          // The lease runs out and the delivery is claimed again: nothing is lost.
          if (!(err instanceof LeaseLostError))
            this.logger.error(`delivery ${delivery.id} attempt not recorded: ${errorText(err)}`);
        }),
      log: this.logger,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    measureQueueDepthWith(() => this.queue.depth());
    await this.loop.start();
  }

  /**
   * Queues deliveries in the caller's transaction. As many as this replica has free slots for are written
   * claimed by it and start sending the moment the transaction commits: no claim query and no wait for a
   * wake-up between the commit and the send. A rollback gives the slots back; a replica that dies before
   * sending leaves them to their lease, like any claim. Returns how many were queued.
   */
  async enqueue(
    em: EntityManager,
    deliveries: (NewDelivery & { endpoint: DeliveryEndpoint })[],
  ): Promise<number> {
    const leaseMs = this.config.WEBHOOK_LEASE_MS;
    const reservation = this.loop.reserve(deliveries.length, leaseMs);
    const claim = reservation ? { workerId: this.workerId, count: reservation.slots, leaseMs } : undefined;
    let queued;
    try {
      queued = await this.queue.enqueue(em, deliveries, claim);
    } catch (err) {
      reservation?.release();
      throw err;
    }
    if (reservation) {
      const byPair = new Map(deliveries.map((d) => [`${d.eventId}/${d.endpointId}`, d]));
      const claimed: ClaimedDelivery[] = [];
      for (const q of queued) {
        const d = byPair.get(`${q.eventId}/${q.endpointId}`);
        if (!q.token || !d) continue;
        claimed.push({
          id: q.id,
          partnerId: d.partnerId,
          endpointId: d.endpointId,
          eventType: d.eventType,
          body: d.body,
          attempts: 1,
          attemptsInRound: 1,
          token: q.token,
          ordered: !!d.order,
          url: d.endpoint.url,
          enabled: d.endpoint.enabled,
          secretSealed: d.endpoint.secretSealed,
          previousSecretSealed: d.endpoint.previousSecretSealed,
          previousSecretExpiresAt: d.endpoint.previousSecretExpiresAt,
        });
      }
      afterTransaction(em, {
        committed: () => reservation.adopt(claimed),
        rolledBack: () => reservation.release(),
      });
    }
    return queued.length;
  }

  private async attempt(d: ClaimedDelivery, leaseLost: AbortSignal): Promise<void> {
    const startedAt = new Date();
    // A disabled endpoint gets no new events; the test operation reaches it regardless.
    const outcome: SendOutcome =
      d.enabled || d.eventType === TEST_EVENT
        ? await this.sender.send(
            d.url,
            d.body,
            this.signingSecrets(d),
            {
              deliveryId: d.id,
              eventType: d.eventType,
            },
            leaseLost,
          )
        : {
            succeeded: false,
            statusCode: null,
            timedOut: false,
            retryAfterMs: null,
            latencyMs: 0,
            responseBody: null,
            error: 'endpoint disabled; not sent',
          };
    // The delivery may be another replica's by now: its outcome is that replica's to record.
    if (leaseLost.aborted) throw new LeaseLostError(d.id);
    const record: AttemptRecord = {
      startedAt,
      latencyMs: outcome.latencyMs,
      statusCode: outcome.statusCode,
      succeeded: outcome.succeeded,
      responseBody: outcome.responseBody,
      error: outcome.error,
    };
    const next = this.settlement(d, outcome);
    await this.queue.settle(d, record, next);
    // The next delivery of its call may be waiting for this one (other replicas find it when they poll).
    if (d.ordered && next.kind !== 'retry') this.loop.wake();
    deliveryAttempts.inc({ outcome: next.kind });
    if (outcome.statusCode !== null)
      deliveryLatency.observe({ outcome: next.kind }, outcome.latencyMs / 1000);
    const expired = d.enabled ? await this.health.record(d.endpointId, outcome.succeeded) : false;
    if (expired && (await this.health.autoDisable(d.partnerId, d.endpointId))) {
      this.logger.warn(
        `endpoint ${d.endpointId} disabled: no successful delivery within ${this.config.WEBHOOK_AUTO_DISABLE_AFTER}`,
      );
    }
  }

  private settlement(d: ClaimedDelivery, outcome: SendOutcome): Settlement {
    if (outcome.succeeded) return { kind: 'succeeded' };
    if (!d.enabled && d.eventType !== TEST_EVENT) return { kind: 'failed' };
    const delayMs = nextRetryDelay(d.attemptsInRound, outcome, this.retryPolicy);
    return delayMs === null ? { kind: 'failed' } : { kind: 'retry', delayMs };
  }

  private signingSecrets(d: ClaimedDelivery): SigningSecrets {
    const inGrace =
      d.previousSecretSealed && d.previousSecretExpiresAt && d.previousSecretExpiresAt > new Date();
    return {
      current: this.secrets.open(d.endpointId, 'secret', d.secretSealed),
      previous: inGrace ? this.secrets.open(d.endpointId, 'previous_secret', d.previousSecretSealed!) : null,
    };
  }

  // Before the database pool closes, so that attempts in flight can record their outcome.
  beforeApplicationShutdown(): Promise<void> {
    measureQueueDepthWith(undefined);
    return this.loop.stop();
  }
}
