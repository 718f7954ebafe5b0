import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { PeriodicTask } from '@vap/runtime';
import { ACTIVE_CALL_STATUSES } from '../../../calls/call-status-machine';
import { Call } from '../../../calls/entities/call.entity';
import { RawCarrierEvent } from '../../../progress/raw-carrier-event';
import { CarrierRegistry } from '../../../carriers/carrier-registry';
import { CarrierReconciler } from '../../../carriers/reconciliation/carrier-reconciler.service';
import { reconciledEvent } from '../../../carriers/reconciliation/reconciled-event';
import { CallsConfig } from '../../../config/calls.config';
import { TelephonyConfig } from '../../../config/telephony.config';
import { CallProgressService } from '../../../progress/call-progress.service';
import { EndReasons } from '../../../progress/end-reasons';
import { platformEndedCall } from '../../../progress/platform-ended-call';

/** Calls looked at per pass by one replica; the rest wait for the next pass. */
const BATCH = 20;

/** provider_event of the end of a call whose placement never completed. */
export const PLACEMENT_INTERRUPTED_EVENT = 'placement-interrupted';
/** provider_event of an end the carrier's record decided once the placement was found again. */
export const PLACEMENT_FOUND_EVENT = 'placement-found';

interface Unplaced {
  id: string;
  /** The carrier may have the call (the dial began); else it was never asked. */
  dialled: boolean;
  /** Past PLACEMENT_LOOKUP_MAX_SECS since the dial began: no more waiting for the carrier. */
  lookup_over: boolean;
}

/**
 * Makes every admitted outbound call progress when its start failed part-way (a database or carrier outage,
 * a crashed replica): a call is placed by its start within PLACEMENT_GRACE_SECS of its admission or never
 * (CallDialer), so past that an active phone call with no carrier id is one of two:
 * - never handed to the carrier: it ends failed (placement_interrupted) through call progress, so its slot
 *   is released and its terminal events (call.status.updated, session.completed) are recorded as for any end;
 * - handed over, its carrier id not saved: the carrier is asked for it (findPlacements: the account's calls
 *   from the call's number to its callee since the dial began, minus those other calls hold). One candidate is
 *   adopted as provider_call_id, and its record read at once (an ended call ends as its record says); none
 *   ends the call failed; when the carrier cannot be asked, names several, or cannot list, it is asked again
 *   every CARRIER_CHECK_RETRY_SECS (meanwhile a signed callback of the call adopts the id too) until
 *   PLACEMENT_LOOKUP_MAX_SECS, then the call ends failed.
 * Each call is claimed with carrier_checked_at under SKIP LOCKED, so one replica acts on it per period.
 */
@Injectable()
export class PlacementRecovery implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PlacementRecovery.name);
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly telephony: TelephonyConfig,
    private readonly carriers: CarrierRegistry,
    private readonly reconciler: CarrierReconciler,
    private readonly progress: CallProgressService,
  ) {
    this.task = new PeriodicTask({
      label: 'placement recovery',
      intervalMs: config.PLACEMENT_RECOVERY_MS,
      run: () => this.sweep(),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  /** Looks at every unplaced call due now; answers how many it ended or found at the carrier. */
  async sweep(): Promise<number> {
    let settled = 0;
    for (const unplaced of await this.claim()) {
      if (await this.recover(unplaced)) settled++;
    }
    return settled;
  }

  private async claim(): Promise<Unplaced[]> {
    const calls = tableOf(this.dataSource, Call);
    const grace = this.config.PLACEMENT_GRACE_SECS;
    return (await this.dataSource.query(
      `WITH due AS (
         SELECT id FROM ${calls}
          WHERE provider_call_id IS NULL AND kind = 'phone' AND direction = 'outbound'
            AND status = ANY($1::text[])
            AND (carrier_checked_at IS NULL OR carrier_checked_at < now() - make_interval(secs => $4))
            AND ((dial_started_at IS NULL AND created_at < now() - make_interval(secs => $2))
                 OR dial_started_at < now() - make_interval(secs => $2 + $3))
          ORDER BY created_at
          LIMIT $6
          FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE ${calls} c SET carrier_checked_at = now()
           FROM due WHERE c.id = due.id
         RETURNING c.id, c.dial_started_at IS NOT NULL AS dialled,
                   c.dial_started_at < now() - make_interval(secs => $5) AS lookup_over
       )
       SELECT * FROM claimed`,
      [
        ACTIVE_CALL_STATUSES,
        grace,
        Math.ceil(this.telephony.CARRIER_HTTP_TIMEOUT_MS / 1000),
        this.config.CARRIER_CHECK_RETRY_SECS,
        this.config.PLACEMENT_LOOKUP_MAX_SECS,
        BATCH,
      ],
    )) as Unplaced[];
  }

  private async recover(unplaced: Unplaced): Promise<boolean> {
    const call = await this.dataSource.getRepository(Call).findOneBy({ id: unplaced.id });
    if (!call || call.providerCallId || !ACTIVE_CALL_STATUSES.includes(call.status)) return false;
    if (!unplaced.dialled) return this.end(call, 'The call was admitted but never handed to the carrier');
    const found = await this.lookUp(call);
    if (found.kind === 'one') return this.adopt(call, found.id);
    if (found.kind === 'none') return this.end(call, 'The carrier has no call of this placement');
    if (unplaced.lookup_over) return this.end(call, `The placement could not be found: ${found.why}`);
    this.logger.warn(`call ${call.id}: its placement on ${call.provider} is not found yet: ${found.why}`);
    return false;
  }

  /** The carrier's calls that may be this placement, less those other calls already hold. */
  private async lookUp(
    call: Call,
  ): Promise<{ kind: 'one'; id: string } | { kind: 'none' } | { kind: 'unsure'; why: string }> {
    const adapter = this.carriers.get(call.provider);
    if (!adapter.findPlacements) return { kind: 'unsure', why: `${call.provider} lists no calls` };
    let candidates: string[];
    try {
      candidates = await adapter.findPlacements(call);
    } catch (err) {
      return { kind: 'unsure', why: err instanceof Error ? err.message : String(err) };
    }
    if (candidates.length) {
      const held = (await this.dataSource.query(
        `SELECT provider_call_id FROM ${tableOf(this.dataSource, Call)}
          WHERE provider = $1 AND provider_call_id = ANY($2::text[])`,
        [call.provider, candidates],
      )) as { provider_call_id: string }[];
      const taken = new Set(held.map((r) => r.provider_call_id));
      candidates = candidates.filter((id) => !taken.has(id));
    }
    if (candidates.length === 1) return { kind: 'one', id: candidates[0] };
    if (!candidates.length) return { kind: 'none' };
    return { kind: 'unsure', why: `${candidates.length} calls of ${call.provider} may be this one` };
  }

  /** Saves the carrier's id, then reads its record: a call that already ended there ends as it says. */
  private async adopt(call: Call, providerCallId: string): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, Call)} SET provider_call_id = $2
        WHERE id = $1 AND provider_call_id IS NULL RETURNING id`,
      [call.id, providerCallId],
    )) as [unknown[], number];
    if (!rows.length) return false;
    call.providerCallId = providerCallId;
    this.logger.warn(`call ${call.id}: its placement ${providerCallId} on ${call.provider} was found again`);
    if (!this.carriers.get(call.provider).fetchCall) return true;
    const outcome = await this.reconciler.check(call, { carrierCallId: call.carrierLegId });
    if (outcome.kind !== 'ended') return true;
    const base = platformEndedCall(call, { event: PLACEMENT_FOUND_EVENT, status: null });
    await this.progress.apply(
      { callId: call.id },
      reconciledEvent(base, outcome.state, `${PLACEMENT_FOUND_EVENT}:${outcome.state.providerStatus}`),
    );
    return true;
  }

  private async end(call: Call, why: string): Promise<boolean> {
    const result = await this.progress.apply({ callId: call.id }, placementInterruptedEnd(call, why));
    if (result.applied) this.logger.warn(`call ${call.id}: ${why}; now ${result.status}`);
    return result.applied;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}

/** The end of a call whose placement never completed: failed, by the platform. */
export function placementInterruptedEnd(call: Pick<Call, 'provider'>, why: string): RawCarrierEvent {
  return platformEndedCall(call, {
    event: PLACEMENT_INTERRUPTED_EVENT,
    status: 'failed',
    hangupCause: 'PLACEMENT_INTERRUPTED',
    endCallReason: EndReasons.placementInterrupted,
    errorMessage: why,
  });
}
