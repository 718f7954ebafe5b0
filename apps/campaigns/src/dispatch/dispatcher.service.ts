import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallListDto, Subjects } from '@vap/contracts';
import { RpcClient } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { CampaignLifecycle } from '../campaigns/campaign-lifecycle.service';
import { CampaignsConfig } from '../config/campaigns.config';
import { Clock } from '../clock/clock';
import { AttemptRow, AttemptsRepository } from './attempts.repository';
import { CallPlacer } from './call-placer';
import { DispatchClaims } from './dispatch-claims';
import { DispatchSignal } from './dispatch-signal';

const RECONCILE_BATCH = 50;
const CAMPAIGN_BATCH = 200;

/**
 * Runs the campaigns of this replica's share: a campaign is dispatched when a signal says a slot may be
 * free (start, resume, a released call, new contacts) and on every poll for due retries. Dispatch passes
 * of one campaign never overlap in this process; across replicas DispatchClaims keeps them apart.
 */
@Injectable()
export class Dispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Dispatcher.name);
  private readonly passes = new Map<string, { again: boolean; done: Promise<void> }>();
  private readonly placing = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private polling = false;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CampaignsConfig,
    private readonly clock: Clock,
    private readonly rpc: RpcClient,
    private readonly claims: DispatchClaims,
    private readonly placer: CallPlacer,
    private readonly attempts: AttemptsRepository,
    private readonly lifecycle: CampaignLifecycle,
    signal: DispatchSignal,
  ) {
    signal.onSignal((campaignId) => this.kick(campaignId));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.poll(), this.config.CAMPAIGNS_DISPATCH_INTERVAL_MS);
    void this.poll();
  }

  /** Dispatches the campaign now, or right after the pass in progress. */
  kick(campaignId: string): void {
    if (this.stopped) return;
    const pass = this.passes.get(campaignId);
    if (pass) {
      pass.again = true;
      return;
    }
    const entry = { again: false, done: Promise.resolve() };
    this.passes.set(campaignId, entry);
    entry.done = (async () => {
      do {
        entry.again = false;
        await this.dispatch(campaignId).catch((err) =>
          this.logger.error(`dispatch of ${campaignId} failed: ${(err as Error).message}`),
        );
      } while (entry.again && !this.stopped);
      this.passes.delete(campaignId);
    })();
  }

  private async dispatch(campaignId: string): Promise<void> {
    const batch = await this.claims.claim(campaignId);
    if (!batch) return;
    for (const claim of batch.claims) {
      const job = this.placer
        .place(batch.campaign, batch.partner, claim)
        .catch((err) =>
          this.logger.error(`placing attempt ${claim.attemptId} failed: ${(err as Error).message}`),
        )
        .finally(() => this.placing.delete(job));
      this.placing.add(job);
    }
  }

  /** Due retries, stale claims and campaigns with nothing left: what no signal announces. */
  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      await this.reconcileStaleClaims();
      const now = this.clock.now();
      const due = (await this.dataSource.query(
        `SELECT c.id FROM ${tableOf(this.dataSource, 'campaigns')} c WHERE c.status = 'running' AND EXISTS (
           SELECT 1 FROM ${tableOf(this.dataSource, 'contacts')} k WHERE k.campaign_id = c.id AND k.status IN ('pending', 'retry_wait')
             AND k.next_attempt_at <= $1)
         LIMIT $2`,
        [now, CAMPAIGN_BATCH],
      )) as { id: string }[];
      for (const { id } of due) this.kick(id);
      const done = (await this.dataSource.query(
        `SELECT c.id, c.partner_id FROM ${tableOf(this.dataSource, 'campaigns')} c WHERE c.status = 'running' AND NOT EXISTS (
           SELECT 1 FROM ${tableOf(this.dataSource, 'contacts')} k WHERE k.campaign_id = c.id AND k.status IN ('pending', 'dialing', 'retry_wait'))
         LIMIT $1`,
        [CAMPAIGN_BATCH],
      )) as { id: string; partner_id: string }[];
      for (const c of done) {
        await this.dataSource.transaction((em) => this.lifecycle.completeIfDone(em, c.partner_id, c.id));
      }
    } catch (err) {
      this.logger.warn(`dispatch poll failed: ${(err as Error).message}`);
    } finally {
      this.polling = false;
    }
  }

  /**
   * A claim whose start command never answered (a crash, a timeout): the call is looked up by its
   * client_reference_id. Found: linked, its events settle it. Not found after the lease: released, so the
   * contact is dialled later, once.
   */
  private async reconcileStaleClaims(): Promise<void> {
    const stale = await this.attempts.staleClaims(this.clock.now(), RECONCILE_BATCH);
    for (const attempt of stale) await this.reconcile(attempt);
  }

  private async reconcile(attempt: AttemptRow): Promise<void> {
    let page: CallListDto;
    try {
      page = await this.rpc.request(Subjects.calls.callList, attempt.partner_id, {
        client_reference_id: attempt.id,
        limit: 1,
      });
    } catch (err) {
      this.logger.warn(
        `attempt ${attempt.id}: calls service unavailable to reconcile (${(err as Error).message})`,
      );
      return;
    }
    const call = page.calls[0];
    if (call) {
      await this.attempts.linkCall(attempt.id, call.call_id);
      return;
    }
    await this.dataSource.transaction(async (em) => {
      const released = await this.attempts.release(em, attempt.id, this.clock.now());
      if (released)
        this.logger.warn(`attempt ${attempt.id} placed no call; contact ${attempt.contact_id} released`);
    });
    this.kick(attempt.campaign_id);
  }

  /** Stops dispatching and lets the start commands under way finish, so their claims are settled. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.passes.values()].map((p) => p.done));
    await Promise.all([...this.placing]);
  }
}
