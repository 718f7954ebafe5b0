import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { Clock, PeriodicTask } from '@vap/runtime';
import { RawCarrierEvent } from '../../raw-carrier-event';
import { CallsConfig } from '../../../config/calls.config';
import { CallProgressService } from '../../call-progress.service';
import { platformEndedCall } from '../../platform-ended-call';
import { STALE_CALL_EVENT } from '../../stale-call-event';

const BATCH = 50;

/**
 * Ends calls whose carrier never sent a final status (a lost callback, a call the carrier lost in a
 * restart): past the agent's max duration (STALE_CALL_UNCAPPED_SECS without one) plus
 * STALE_CALL_GRACE_SECS they fail through the normal progress path, so the concurrency slot is released,
 * the answered time is billed and session.completed is still reported. The carrier may still be carrying
 * the call: EndedCallFollowUp hangs it up there and ends its voice session once the end has committed.
 */
@Injectable()
export class StaleCallSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StaleCallSweeper.name);
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly progress: CallProgressService,
    private readonly clock: Clock,
  ) {
    this.task = new PeriodicTask({
      label: 'stale-call sweep',
      intervalMs: this.config.STALE_CALL_SWEEP_MS,
      run: () => this.sweep(),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async sweep(): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT id, provider FROM ${tableOf(this.dataSource, 'calls')}
        WHERE status IN ('pending', 'ringing', 'in_progress') AND kind = 'phone'
          AND created_at < $4::timestamptz - make_interval(secs =>
                COALESCE((agent_settings->>'maxCallDurationSecs')::int, (agent_settings->>'max_call_duration_secs')::int, $1) + $2)
        ORDER BY created_at
        LIMIT $3`,
      [this.config.STALE_CALL_UNCAPPED_SECS, this.config.STALE_CALL_GRACE_SECS, BATCH, this.clock.now()],
    )) as { id: string; provider: RawCarrierEvent['provider'] }[];
    for (const { id, provider } of rows) {
      const call = await this.progress.apply(
        { callId: id },
        platformEndedCall(
          { provider },
          {
            event: STALE_CALL_EVENT,
            at: this.clock.now(),
            status: 'failed',
            hangupCause: 'NO_FINAL_STATUS',
            errorMessage: 'The carrier reported no final status in time',
          },
        ),
      );
      this.logger.warn(`call ${id} had no final status in time; now ${call.status}`);
    }
    return rows.length;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
