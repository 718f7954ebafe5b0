import { BeforeApplicationShutdown, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { ACTIVE_CALL_STATUSES } from '../calls/call-status-machine';
import { tableOf } from '@vap/persistence';

let source: (() => Promise<{ partner_id: string; active: string }[]>) | undefined;

export const activeCalls = new Gauge({
  name: 'vap_calls_active',
  help: 'Calls not yet in a terminal status, per partner (what counts against the concurrency limit)',
  labelNames: ['partner_id'],
  async collect() {
    const rows = await source?.().catch(() => undefined);
    if (!rows) return;
    // A partner whose last call ended disappears from the series instead of staying at its old value.
    this.reset();
    for (const r of rows) this.set({ partner_id: r.partner_id }, Number(r.active));
  },
});

/** Counts active calls from the database when /metrics is scraped, so every replica reports the truth. */
@Injectable()
export class ActiveCallsMetrics implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    source = () =>
      this.dataSource.query(
        `SELECT partner_id, count(*) AS active FROM ${tableOf(this.dataSource, 'calls')} WHERE status = ANY($1) GROUP BY partner_id`,
        [ACTIVE_CALL_STATUSES],
      );
  }

  beforeApplicationShutdown(): void {
    source = undefined;
  }
}

@Module({ providers: [ActiveCallsMetrics] })
export class CallsMetricsModule {}
