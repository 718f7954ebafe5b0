import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ACTIVE_CALL_STATUSES } from '../../calls/call-status-machine';
import { tableOf } from '@vap/persistence';
import { PeriodicTask } from '@vap/runtime';
import { RawCarrierEvent } from '../../progress/raw-carrier-event';
import { CarrierRegistry } from '../carrier-registry';
import { Call } from '../../calls/entities/call.entity';
import { CallsConfig } from '../../config/calls.config';
import { EndReasons } from '../../progress/end-reasons';
import { CallProgressService } from '../../progress/call-progress.service';
import { completedIfAnswered, platformEndedCall } from '../../progress/platform-ended-call';
import { CarrierReconciler } from './carrier-reconciler.service';
import { reconciledEvent } from './reconciled-event';
import { carrierSilenceChecks } from './reconciliation.metrics';

/** Calls asked about per sweep by one replica; the rest wait for the next sweep. */
const BATCH = 20;

/** provider_event of an end the carrier's record decided after it went quiet. */
export const CARRIER_CHECK_EVENT = 'carrier-check';
/** provider_event of the end of a call the carrier no longer knows. */
export const CARRIER_CALL_LOST_EVENT = 'carrier-call-lost';

interface QuietCall {
  id: string;
  /** When the call's media stream ended, if it did. */
  stream_ended_at: Date | null;
}

/**
 * Asks the carrier about live calls it has gone quiet on, so a call the carrier lost (a restart of the
 * carrier, the sandbox carrier included) ends within seconds rather than at the stale sweep. A call is
 * asked about when its media stream ended or the platform hung it up CARRIER_FINAL_STATUS_WAIT_SECS ago
 * with no final status since, or when it has been initiated or ringing for CARRIER_RING_CHECK_SECS; then
 * again every CARRIER_CHECK_RETRY_SECS while it stays live. The carrier's REST API (fetchCall) decides:
 * - a final status ends the call as that status's callback would (checked: carrier_reconciliation verified);
 * - live: nothing (its final callback will come);
 * - the carrier does not know the call (404): it ends as carrier_call_lost: completed and billed for the
 *   time it was answered (to its media stream's end) when it was answered, failed otherwise;
 * - no answer: asked again later (the stale sweeper remains the backstop).
 * Ends go through call progress like any other: billed once, call.status.updated in the outbox, post-call
 * processing and session.completed as usual. Carriers without a call resource (fetchCall) are not asked.
 */
@Injectable()
export class CarrierSilenceCheck implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CarrierSilenceCheck.name);
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly carriers: CarrierRegistry,
    private readonly reconciler: CarrierReconciler,
    private readonly progress: CallProgressService,
  ) {
    this.task = new PeriodicTask({
      label: 'carrier silence check',
      intervalMs: config.CARRIER_SILENCE_CHECK_MS,
      run: () => this.sweep(),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  /** Asks the carrier about every quiet call due now; answers how many of them it ended. */
  async sweep(): Promise<number> {
    let ended = 0;
    for (const quiet of await this.claim()) {
      if (await this.check(quiet)) ended++;
    }
    return ended;
  }

  /**
   * Marks the due calls as asked now, so one replica asks about each once per retry period; calls locked
   * by their progress right now are left to the next sweep.
   */
  private async claim(): Promise<QuietCall[]> {
    const calls = tableOf(this.dataSource, 'calls');
    const sessions = tableOf(this.dataSource, 'call_sessions');
    return (await this.dataSource.query(
      `WITH due AS (
         SELECT c.id, s.media_stream_ended_at
           FROM ${calls} c LEFT JOIN ${sessions} s ON s.call_id = c.id
          WHERE c.status = ANY($1::text[]) AND c.kind = 'phone' AND c.provider_call_id IS NOT NULL
            AND (c.carrier_checked_at IS NULL OR c.carrier_checked_at < now() - make_interval(secs => $4))
            AND (s.media_stream_ended_at < now() - make_interval(secs => $2)
                 OR c.end_requested_at < now() - make_interval(secs => $2)
                 OR (c.status IN ('pending', 'ringing') AND c.created_at < now() - make_interval(secs => $3)))
          ORDER BY c.created_at
          LIMIT $5
          FOR UPDATE OF c SKIP LOCKED
       ), claimed AS (
         UPDATE ${calls} c SET carrier_checked_at = now()
           FROM due
          WHERE c.id = due.id
         RETURNING c.id, due.media_stream_ended_at AS stream_ended_at
       )
       SELECT * FROM claimed`,
      [
        ACTIVE_CALL_STATUSES,
        this.config.CARRIER_FINAL_STATUS_WAIT_SECS,
        this.config.CARRIER_RING_CHECK_SECS,
        this.config.CARRIER_CHECK_RETRY_SECS,
        BATCH,
      ],
    )) as QuietCall[];
  }

  private async check(quiet: QuietCall): Promise<boolean> {
    const call = await this.dataSource.getRepository(Call).findOneBy({ id: quiet.id });
    if (!call || !ACTIVE_CALL_STATUSES.includes(call.status)) return false;
    if (!this.carriers.get(call.provider).fetchCall) return false;
    const outcome = await this.reconciler.check(call, { carrierCallId: call.carrierLegId });
    if (outcome.kind === 'live') {
      carrierSilenceChecks.inc({ provider: call.provider, outcome: 'live' });
      return false;
    }
    if (outcome.kind === 'unknown' && !outcome.gone) {
      carrierSilenceChecks.inc({ provider: call.provider, outcome: 'unknown' });
      this.logger.warn(`call ${call.id}: ${call.provider} could not be asked about it: ${outcome.error}`);
      return false;
    }
    const now = new Date();
    const event =
      outcome.kind === 'ended'
        ? reconciledEvent(
            platformEndedCall(call, { event: CARRIER_CHECK_EVENT, at: now, status: null }),
            outcome.state,
            `${CARRIER_CHECK_EVENT}:${outcome.state.providerStatus}`,
          )
        : lostCallEnd(call, quiet.stream_ended_at ?? now);
    const result = await this.progress.apply({ callId: call.id }, event);
    const label = outcome.kind === 'ended' ? 'ended' : 'lost';
    carrierSilenceChecks.inc({ provider: call.provider, outcome: label });
    if (result.applied) {
      this.logger.warn(
        outcome.kind === 'ended'
          ? `call ${call.id}: ${call.provider} reported no final status; its record says ${outcome.state.providerStatus}, now ${result.status}`
          : `call ${call.id}: ${call.provider} no longer knows the call; ended ${result.status} (${EndReasons.carrierCallLost})`,
      );
    }
    return result.applied;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}

/**
 * The end of a live call its carrier no longer knows: an answered call completes, billed (by call progress)
 * for the time from its answer to `endedAt` (its media stream's end, when it had one); an unanswered one fails.
 */
export function lostCallEnd(call: Pick<Call, 'provider' | 'status'>, endedAt: Date): RawCarrierEvent {
  return platformEndedCall(call, {
    event: CARRIER_CALL_LOST_EVENT,
    at: endedAt,
    hangupCause: 'CARRIER_CALL_LOST',
    endCallReason: EndReasons.carrierCallLost,
    ...completedIfAnswered(call, 'The carrier lost the call before it was answered'),
  });
}
