import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ACTIVE_CALL_STATUSES, isTerminalStatus } from '../../calls/call-status-machine';
import { tableOf } from '@vap/persistence';
import { CarrierCallState } from '../carrier-adapter';
import { RawCarrierEvent } from '../../progress/raw-carrier-event';
import { CarrierCallGone } from '../carrier-http';
import { CarrierRegistry } from '../carrier-registry';
import { CallsConfig } from '../../config/calls.config';
import { Call } from '../../calls/entities/call.entity';
import { CallProgressService, ProgressResult } from '../../progress/call-progress.service';
import { notifyQueued } from '../../work-queue/call-work-queue';
import { claimsTerminal, reconciledEvent } from './reconciled-event';
import { carrierReconciliations } from './reconciliation.metrics';
import { CARRIER_RECONCILIATIONS } from './reconciliation-queue';

export type CheckOutcome =
  | { kind: 'ended'; state: Extract<CarrierCallState, { live: false }> }
  | { kind: 'live' }
  /** The carrier could not say; `gone` when it answered that it does not know the call (HTTP 404). */
  | { kind: 'unknown'; error: string; gone?: true };

/**
 * Carrier events reach call progress through here. A callback is signed with the partner's own carrier
 * token, so one that would end the call (release its slot, fix its bill) is first checked with the
 * carrier's REST API: applied with the carrier's status and recorded duration when the carrier agrees
 * the call ended, not applied while the carrier says it is live, and queued for the
 * CarrierReconciliationWorker when the carrier cannot be asked (or the call should be looked at again).
 */
@Injectable()
export class CarrierReconciler {
  private readonly logger = new Logger(CarrierReconciler.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: CarrierRegistry,
    private readonly progress: CallProgressService,
    private readonly config: CallsConfig,
  ) {}

  /**
   * Applies the event, or holds it back until the carrier confirms it (null: not applied now). The carrier
   * is asked for at most half the command deadline (RPC_TIMEOUT_MS): the callback waits on this answer, and a
   * carrier told 502 for a callback that was in fact taken would send it again. A slower carrier's answer is
   * left to the reconciliation worker.
   */
  async apply(call: Call, event: RawCarrierEvent): Promise<ProgressResult | null> {
    if (!this.needsCheck(call, event)) return this.progress.apply({ callId: call.id }, event);
    const outcome = await this.check(call, event, Math.floor(this.config.RPC_TIMEOUT_MS / 2));
    if (outcome.kind === 'ended') {
      carrierReconciliations.inc({ provider: call.provider, outcome: 'verified' });
      return this.progress.apply({ callId: call.id }, reconciledEvent(event, outcome.state));
    }
    if (outcome.kind === 'live') {
      carrierReconciliations.inc({ provider: call.provider, outcome: 'refused_live' });
      this.logger.warn(
        `call ${call.id}: ${call.provider} callback says ${event.providerStatus}, the carrier says the call is live; not applied`,
      );
    } else {
      carrierReconciliations.inc({ provider: call.provider, outcome: 'deferred' });
      this.logger.warn(
        `call ${call.id}: could not check a final callback with ${call.provider}: ${outcome.error}`,
      );
    }
    // Looked at again later: the carrier may lag behind its own callback, or be unreachable for a while.
    await this.queue(
      call,
      event,
      outcome.kind === 'live' ? 'the carrier says the call is live' : outcome.error,
    );
    return null;
  }

  /** Whether the carrier's record decides this event: a terminal claim, on a carrier that has one. */
  needsCheck(call: Call, event: RawCarrierEvent): boolean {
    if (isTerminalStatus(call.status) || !claimsTerminal(event)) return false;
    return !!this.carriers.get(call.provider).fetchCall;
  }

  /** What the carrier says of the call; `waitMs` bounds the wait (the request itself has its own deadline). */
  async check(call: Call, hint: { carrierCallId?: string | null }, waitMs?: number): Promise<CheckOutcome> {
    const adapter = this.carriers.get(call.provider);
    const asked = adapter.fetchCall!(call, { carrierCallId: hint.carrierCallId ?? null });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      if (waitMs !== undefined) {
        timer = setTimeout(
          () => reject(new Error(`${call.provider} did not answer within ${waitMs} ms`)),
          waitMs,
        );
      }
    });
    try {
      const state = await Promise.race([asked, late]);
      return state.live ? { kind: 'live' } : { kind: 'ended', state };
    } catch (err) {
      asked.catch(() => undefined); // an answer given up on may still fail: nobody waits for it
      const error = err instanceof Error ? err.message : String(err);
      return err instanceof CarrierCallGone
        ? { kind: 'unknown', error, gone: true }
        : { kind: 'unknown', error };
    } finally {
      clearTimeout(timer);
    }
  }

  private async queue(call: Call, event: RawCarrierEvent, reason: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await em.query(
        `INSERT INTO ${tableOf(em, 'carrier_reconciliations')} (call_id, claimed_event, last_error)
         VALUES ($1, $2, $3)
         ON CONFLICT (call_id) DO UPDATE
           SET claimed_event = EXCLUDED.claimed_event, last_error = EXCLUDED.last_error,
               status = 'queued', updated_at = now()`,
        [call.id, JSON.stringify(event), reason.slice(0, 1000)],
      );
      await em.query(
        `UPDATE ${tableOf(em, 'calls')} SET carrier_reconciliation = 'pending' WHERE id = $1 AND status = ANY($2)`,
        [call.id, ACTIVE_CALL_STATUSES],
      );
      notifyQueued(em, CARRIER_RECONCILIATIONS);
    });
  }
}
