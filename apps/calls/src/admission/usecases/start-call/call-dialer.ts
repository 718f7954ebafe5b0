import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { CallbackUrls } from '../../../carriers/callback-urls';
import { CarrierAdapter, PlacementUnknown } from '../../../carriers/carrier-adapter';
import { CarrierRegistry } from '../../../carriers/carrier-registry';
import { CallsConfig } from '../../../config/calls.config';
import { CallProgressService } from '../../../progress/call-progress.service';
import { platformEndedCall } from '../../../progress/platform-ended-call';
import { Call, carrierConnectionOf } from '../../../calls/entities/call.entity';
import { placementDeadline, whileDatabaseDown } from './placement-deadline';

/**
 * Hands an admitted outbound call to its carrier, in three steps that each leave the call recoverable
 * (PlacementRecovery): the dial is claimed (dial_started_at, only while the call is pending, undialled and
 * within PLACEMENT_GRACE_SECS of its admission, so one start dials it at most once and never after the
 * recovery may have ended it), the carrier is asked, then its id is saved. A carrier that refuses or cannot
 * be reached fails the call like any carrier failure (through progress) and the start answers 502; a 4xx
 * stays as it is. A carrier that may have placed the call without saying so (PlacementUnknown: no answer
 * once the request went out, a server error) leaves the call pending, as does a carrier id that cannot be
 * saved: the carrier may carry it, so it is never failed here; the recovery (or its first callback) finds
 * the id, or ends the call once the carrier has no such call. The claim is tried again while the database
 * cannot be reached, up to the grace (whileDatabaseDown): a short database restart delays the dial, once.
 */
@Injectable()
export class CallDialer {
  private readonly logger = new Logger(CallDialer.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: CarrierRegistry,
    private readonly urls: CallbackUrls,
    private readonly progress: CallProgressService,
    private readonly config: CallsConfig,
  ) {}

  /** The provider's adapter, looked up before the call is admitted: an unknown carrier is 404, no row. */
  carrierFor(provider: string): CarrierAdapter {
    return this.carriers.get(provider);
  }

  async dial(adapter: CarrierAdapter, call: Call): Promise<void> {
    const claimed = await this.whileDatabaseDown(call, () => this.claim(call));
    if (!claimed) {
      throw AppError.downstream(`Call ${call.id} could not be handed to the carrier in time; it ends failed`);
    }
    let providerCallId: string;
    try {
      ({ providerCallId } = await adapter.placeCall(
        {
          callId: call.id,
          partnerId: call.partnerId,
          agentId: call.agentId,
          fromNumber: call.fromNumber,
          toNumber: call.toNumber,
          agent: call.agentSettings,
          variables: call.variables,
          callbackUrl: this.urls.forCall(call.provider, call.id),
        },
        { id: carrierConnectionOf(call), partnerId: call.partnerId, provider: call.provider },
      ));
    } catch (err) {
      if (err instanceof PlacementUnknown) {
        this.logger.warn(`call ${call.id}: left to placement recovery: ${err.message}`);
        return;
      }
      // Not saved (the database is gone too): the recovery asks the carrier, which has no such call, and ends it.
      await this.placementFailed(call, err).catch((e: Error) =>
        this.logger.warn(`call ${call.id}: its failed placement could not be recorded: ${e.message}`),
      );
      if (err instanceof AppError && err.status < 500) throw err;
      throw AppError.downstream(`The carrier could not place call ${call.id}; retry`);
    }
    // The carrier carries the call from here on: a failure to save its id must never fail the call.
    await this.dataSource
      .query(
        `UPDATE ${tableOf(this.dataSource, Call)} SET provider_call_id = $2
          WHERE id = $1 AND provider_call_id IS NULL`,
        [call.id, providerCallId],
      )
      .catch((err: Error) => {
        this.logger.warn(
          `call ${call.id}: carrier id ${providerCallId} not saved, left to recovery: ${err.message}`,
        );
        throw err;
      });
  }

  /**
   * Runs a step of the call's start again while the database cannot be reached, until its placement grace
   * ends (the step must be safe to repeat).
   */
  whileDatabaseDown<T>(call: Call, step: () => Promise<T>): Promise<T> {
    let told = false;
    return whileDatabaseDown(step, placementDeadline(call, this.config.PLACEMENT_GRACE_SECS), (err) => {
      if (told) return;
      told = true;
      this.logger.warn(
        `call ${call.id}: the database is unavailable, its start waits for it: ${String(err)}`,
      );
    });
  }

  /** Marks the dial as begun; false when the call is no longer pending, was dialled, or waited too long. */
  private async claim(call: Call): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, Call)} SET dial_started_at = now()
        WHERE id = $1 AND status = 'pending' AND dial_started_at IS NULL AND provider_call_id IS NULL
          AND created_at > now() - make_interval(secs => $2)
        RETURNING dial_started_at`,
      [call.id, this.config.PLACEMENT_GRACE_SECS],
    )) as [{ dial_started_at: Date }[], number];
    if (!rows.length) return false;
    call.dialStartedAt = rows[0].dial_started_at;
    return true;
  }

  /** The carrier refused or was unreachable: the call fails like any carrier failure, through progress. */
  private async placementFailed(call: Call, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    this.logger.warn(`placing call ${call.id} on ${call.provider} failed: ${message}`);
    await this.progress.apply(
      { callId: call.id },
      platformEndedCall(call, {
        event: 'place-call',
        dedupeKey: 'place-call-failed',
        status: 'failed',
        hangupSource: 'carrier',
        hangupCause: 'PLACEMENT_FAILED',
        errorMessage: `The carrier could not place the call: ${message}`,
      }),
    );
  }
}
