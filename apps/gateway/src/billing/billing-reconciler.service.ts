import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { Subjects, UnbilledChargesPage } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { PeriodicTask } from '@vap/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { CallChargeService } from './call-charge.service';

const PARTNER_BATCH = 500;
const CHARGE_PAGE = 100;
/** One replica reconciles at a time; the others skip the round (charging is idempotent anyway). */
const LOCK_KEY = 'gateway.billing_reconciler';

export const reconciledCharges = new Counter({
  name: 'vap_billing_reconciled_charges_total',
  help: 'Call charges debited by the billing reconciler because session.completed had not (lost or late events)',
});

/**
 * Billing independent of the event stream's retention: at start and every BILLING_RECONCILE_INTERVAL_MS
 * it asks the calls service, partner by partner, for charges not yet acknowledged, debits each one
 * (once: CallChargeService) and acknowledges them, so calls stops listing them.
 */
@Injectable()
export class BillingReconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BillingReconciler.name);
  private readonly task: PeriodicTask;
  /** Set at shutdown: a round in progress stops between partners. */
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    private readonly charges: CallChargeService,
    private readonly config: GatewayConfig,
  ) {
    this.task = new PeriodicTask({
      label: 'billing reconciliation',
      intervalMs: this.config.BILLING_RECONCILE_INTERVAL_MS,
      runAtStart: true,
      run: () => this.reconcile(),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  /** One round over every partner; answers how many charges it debited itself. */
  async reconcile(): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [
        LOCK_KEY,
      ])) as { locked: boolean }[];
      if (!locked) return 0;
      try {
        let charged = 0;
        let after: string | null = null;
        for (;;) {
          const partners = (await this.dataSource.query(
            `SELECT id FROM ${tableOf(this.dataSource, 'partners')} WHERE ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2`,
            [after, PARTNER_BATCH],
          )) as { id: string }[];
          for (const { id } of partners) {
            if (this.stopped) return charged;
            // One partner's failure (a timeout, a failed debit) leaves it for the next round, not the others.
            charged += await this.reconcilePartner(id).catch((err: Error) => {
              this.logger.error(`billing reconciliation of partner ${id} failed: ${err.message}`);
              return 0;
            });
          }
          if (partners.length < PARTNER_BATCH) return charged;
          after = partners[partners.length - 1].id;
        }
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtext($1))`, [LOCK_KEY]);
      }
    } finally {
      await runner.release();
    }
  }

  private async reconcilePartner(partnerId: string): Promise<number> {
    let charged = 0;
    let cursor: string | null = null;
    do {
      const page: UnbilledChargesPage = await this.rpc.request(Subjects.calls.billingUnbilled, partnerId, {
        cursor,
        limit: CHARGE_PAGE,
      });
      if (!page.charges.length) break;
      for (const c of page.charges) {
        const outcome = await this.dataSource.transaction((em) =>
          this.charges.charge(em, {
            partnerId,
            callId: c.callId,
            amountPaise: c.amountPaise,
            billedSeconds: c.billSeconds,
            billingRate: c.billingRate ?? 'standard',
            // A calls service older than the attribution fields leaves them out.
            agentId: c.agentId ?? null,
            campaignId: c.campaignId ?? null,
            projectId: c.projectId ?? null,
            browserSessionId: c.browserSessionId ?? null,
            platformSpeechProviders: c.platformPaidSpeech ?? null,
            modelUsage: c.modelUsage ?? null,
          }),
        );
        if (outcome === 'charged') {
          charged++;
          reconciledCharges.inc();
          this.logger.warn(`call ${c.callId}: charged ${c.amountPaise} paise by reconciliation (no event)`);
        }
      }
      // Acknowledged only after every debit above committed: a crash in between lists them again.
      await this.rpc.request(Subjects.calls.billingAcknowledge, partnerId, {
        callIds: page.charges.map((c) => c.callId),
      });
      cursor = page.nextCursor;
    } while (cursor);
    return charged;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
  }
}
