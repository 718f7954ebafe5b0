import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isTerminalStatus } from '../../calls/call-status-machine';
import { tableOf } from '@vap/persistence';
import { callTiming } from '../../charges/call-timing';
import { RawCarrierEvent } from '../../progress/raw-carrier-event';
import { Call } from '../../calls/entities/call.entity';
import { CallsConfig } from '../../config/calls.config';
import { CallProgressService } from '../../progress/call-progress.service';
import { CallQueueWorker } from '../../work-queue/call-work-queue';
import { CarrierReconciler } from './carrier-reconciler.service';
import { reconciledEvent } from './reconciled-event';
import { CARRIER_RECONCILIATIONS, QueuedReconciliation } from './reconciliation-queue';
import { carrierReconciliations } from './reconciliation.metrics';

/** Looks for due retries this often; a newly queued check wakes the loop at once. */
const POLL_MS = 1000;
/** How many checks this replica has in progress at once (each one asks a carrier). */
const CONCURRENCY = 4;
const MAX_DELAY_MS = 300_000;

/**
 * Looks again at terminal callbacks the carrier did not confirm: ends the call as the carrier's record
 * says once it has ended; leaves a call the carrier still reports live to its real final callback; and a
 * call whose carrier cannot be asked after CARRIER_RECONCILE_MAX_ATTEMPTS is ended on the callback's word
 * but flagged `unreconciled` and billed at least the time the platform saw it answered, never for free.
 */
@Injectable()
export class CarrierReconciliationWorker extends CallQueueWorker<QueuedReconciliation> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly reconciler: CarrierReconciler,
    private readonly progress: CallProgressService,
  ) {
    super(dataSource, CARRIER_RECONCILIATIONS, {
      label: 'carrier reconciliations',
      logger: CarrierReconciliationWorker.name,
      pollMs: POLL_MS,
      concurrency: CONCURRENCY,
    });
  }

  protected async run(job: QueuedReconciliation): Promise<void> {
    const call = await this.dataSource.getRepository(Call).findOneBy({ id: job.call_id });
    if (!call || isTerminalStatus(call.status)) return this.finish(job.call_id, null);
    const claimed = { ...job.claimed_event, occurredAt: new Date(job.claimed_event.occurredAt) };
    const outcome = await this.reconciler.check(call, claimed);
    if (outcome.kind === 'ended') {
      carrierReconciliations.inc({ provider: call.provider, outcome: 'verified' });
      const status = outcome.state.providerStatus;
      await this.progress.apply(
        { callId: call.id },
        reconciledEvent(claimed, outcome.state, `reconciled:${status}`),
      );
      return this.finish(call.id, null);
    }
    const last = job.attempts >= this.config.CARRIER_RECONCILE_MAX_ATTEMPTS;
    if (outcome.kind === 'live') {
      // The claim was false or early; the carrier's own final callback (or the stale sweeper) ends it.
      if (last) return this.finish(call.id, 'the carrier kept reporting the call live');
      return this.retry(job, 'the carrier says the call is live');
    }
    if (!last) return this.retry(job, outcome.error);
    await this.flag(call, claimed, outcome.error);
    return this.finish(call.id, outcome.error);
  }

  /** Ends the call on the callback's word, billed at least what the platform saw, and flags it. */
  private async flag(call: Call, claimed: RawCarrierEvent, error: string): Promise<void> {
    const now = new Date();
    const seen = callTiming(call, call.startedAt !== null, now, {}).durationSeconds;
    const duration = Math.max(claimed.durationSeconds ?? 0, seen);
    await this.progress.apply(
      { callId: call.id },
      {
        ...claimed,
        dedupeKey: 'unreconciled',
        occurredAt: now,
        durationSeconds: duration,
        billDurationSeconds: Math.max(claimed.billDurationSeconds ?? 0, duration),
        reconciliation: 'unreconciled',
      },
    );
    carrierReconciliations.inc({ provider: call.provider, outcome: 'unreconciled' });
    this.logger.error(
      `call ${call.id}: ${call.provider} could not confirm its final callback (${error}); ended as ${claimed.providerStatus}, billed ${duration} s and flagged unreconciled`,
    );
  }

  private async retry(job: QueuedReconciliation, reason: string): Promise<void> {
    const delay = Math.min(MAX_DELAY_MS, this.config.CARRIER_RECONCILE_RETRY_MS * 2 ** (job.attempts - 1));
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'carrier_reconciliations')}
          SET run_after = now() + make_interval(secs => $2), last_error = $3, updated_at = now()
        WHERE call_id = $1`,
      [job.call_id, delay / 1000, reason.slice(0, 1000)],
    );
  }

  private async finish(callId: string, reason: string | null): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await em.query(
        `UPDATE ${tableOf(em, 'carrier_reconciliations')} SET status = 'done', last_error = COALESCE($2, last_error), updated_at = now()
          WHERE call_id = $1`,
        [callId, reason],
      );
      // A call still live has nothing pending any more; an ended one keeps what its end recorded.
      await em.query(
        `UPDATE ${tableOf(em, 'calls')} SET carrier_reconciliation = NULL WHERE id = $1 AND carrier_reconciliation = 'pending'`,
        [callId],
      );
    });
  }
}
