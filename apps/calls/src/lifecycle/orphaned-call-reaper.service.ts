import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallStatus } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { PeriodicTask } from '@vap/runtime';
import { RawCarrierEvent } from '../carriers/carrier-adapter';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { CallsConfig } from '../config/calls.config';
import { CallProgressService } from '../progress/call-progress.service';
import { EndReasons } from '../progress/end-reasons';
import { interruptedEnd } from '../progress/interrupted-end';
import { ReplicaLiveness } from './replica-liveness.service';
import { carrierCallOfRow } from '../media-sessions/voice-calls';

interface OrphanedCall {
  id: string;
  partner_id: string;
  connection_id: string;
  provider: RawCarrierEvent['provider'];
  provider_call_id: string | null;
  carrier_leg_id: string | null;
  status: CallStatus;
  /** How long the call has run by its own clock, or since its answer. */
  seconds: number | null;
}

/**
 * Ends the live calls of replicas that are gone. A call driven in-process (the sandbox conversation)
 * cannot outlive its replica, yet after a crash its row stays live and holds the partner's concurrency
 * slot. At boot and every CALL_OWNER_CHECK_MS each replica looks for live calls whose owner no longer
 * holds its liveness lock and ends them through the progress path, like any end: the carrier is told to
 * hang up, an answered call completes and is billed for the time it ran, an unanswered one fails, with
 * end_call_reason platform_interrupted; the slot is released and the usual events follow. A replica
 * that crashed cannot resume a conversation it held in memory, so ending is the honest outcome.
 */
@Injectable()
export class OrphanedCallReaper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OrphanedCallReaper.name);
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly liveness: ReplicaLiveness,
    private readonly carriers: CarrierRegistry,
    private readonly progress: CallProgressService,
  ) {
    this.task = new PeriodicTask({
      label: 'orphaned-call check',
      intervalMs: this.config.CALL_OWNER_CHECK_MS,
      runAtStart: true,
      run: () => this.reap(),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  /** Ends every live call of a gone owner; answers how many it ended. */
  async reap(): Promise<number> {
    const owners = (await this.dataSource.query(
      `SELECT DISTINCT owner_id FROM ${tableOf(this.dataSource, 'calls')}
        WHERE owner_id IS NOT NULL AND owner_id <> $1 AND status IN ('pending', 'ringing', 'in_progress')`,
      [this.liveness.id],
    )) as { owner_id: string }[];
    let ended = 0;
    for (const { owner_id: owner } of owners) {
      const orphans = await this.dataSource.transaction(async (em) => {
        if (!(await this.liveness.isGone(em, owner))) return [];
        return (await em.query(
          `SELECT c.id, c.partner_id, c.connection_id, c.provider, c.provider_call_id, c.carrier_leg_id,
                  c.status,
                  GREATEST(s.live_seconds::float8, EXTRACT(EPOCH FROM now() - c.started_at)::float8) AS seconds
             FROM ${tableOf(em, 'calls')} c JOIN ${tableOf(em, 'call_sessions')} s ON s.call_id = c.id
            WHERE c.owner_id = $1 AND c.status IN ('pending', 'ringing', 'in_progress')`,
          [owner],
        )) as OrphanedCall[];
      });
      if (orphans.length)
        this.logger.warn(`calls replica ${owner} is gone; ending its ${orphans.length} live call(s)`);
      for (const call of orphans) {
        if (await this.end(call)) ended++;
      }
    }
    return ended;
  }

  private async end(call: OrphanedCall): Promise<boolean> {
    if (call.provider_call_id) {
      // The callee may still be on the line at a real carrier; the sandbox's went with the replica.
      await this.carriers
        .get(call.provider)
        .hangup(carrierCallOfRow(call), EndReasons.platformInterrupted)
        .catch((err) => this.logger.warn(`call ${call.id}: hang-up failed: ${(err as Error).message}`));
    }
    const result = await this.progress.apply({ callId: call.id }, interruptedEnd(call));
    return result.applied;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
