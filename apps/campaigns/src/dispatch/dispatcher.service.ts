import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallListDto } from '@vap/api';
import { Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { CampaignLifecycle } from '../campaigns/campaign-lifecycle.service';
import { CampaignsConfig } from '../config/campaigns.config';
import { CampaignClock } from '../clock/campaign-clock';
import { AttemptRow, AttemptsRepository } from './attempts.repository';
import { CallPlacer } from './call-placer';
import { DEFAULT_ACCOUNT_LIMIT, DispatchClaims } from './dispatch-claims';
import { DispatchSignal } from './dispatch-signal';

const RECONCILE_BATCH = 50;
const CAMPAIGN_BATCH = 200;
/** Why a pass runs: a signal's pass hands account slots it cannot use to the partner's other campaigns. */
type PassCause = 'signal' | 'sibling' | 'poll';

/**
 * Runs the campaigns of this replica's share: a campaign is dispatched when a signal says a slot may be
 * free (start, resume, a released call, new contacts) and on every poll for due retries. Dispatch passes
 * of one campaign never overlap in this process; across replicas DispatchClaims keeps them apart.
 */
@Injectable()
export class Dispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Dispatcher.name);
  private readonly passes = new Map<string, { again: boolean; signalled: boolean; done: Promise<void> }>();
  private readonly placing = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private polling = false;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CampaignsConfig,
    private readonly clock: CampaignClock,
    private readonly rpc: RpcClient,
    private readonly claims: DispatchClaims,
    private readonly placer: CallPlacer,
    private readonly attempts: AttemptsRepository,
    private readonly lifecycle: CampaignLifecycle,
    signal: DispatchSignal,
  ) {
    signal.onSignal((campaignId) => this.kick(campaignId, 'signal'));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.poll(), this.config.CAMPAIGNS_DISPATCH_INTERVAL_MS);
    void this.poll();
  }

  /** Dispatches the campaign now, or right after the pass in progress. */
  kick(campaignId: string, cause: PassCause = 'poll'): void {
    if (this.stopped) return;
    const pass = this.passes.get(campaignId);
    if (pass) {
      pass.again = true;
      if (cause === 'signal') pass.signalled = true;
      return;
    }
    const entry = { again: false, signalled: cause === 'signal', done: Promise.resolve() };
    this.passes.set(campaignId, entry);
    entry.done = (async () => {
      do {
        const signalled = entry.signalled;
        entry.again = false;
        entry.signalled = false;
        await this.dispatch(campaignId, signalled).catch((err) =>
          this.logger.error(`dispatch of ${campaignId} failed: ${(err as Error).message}`),
        );
      } while (entry.again && !this.stopped);
      this.passes.delete(campaignId);
    })();
  }

  private async dispatch(campaignId: string, signalled: boolean): Promise<void> {
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
    // A slot this campaign cannot use (its last contacts are out, or it is at its own limit) is the
    // partner's: its other campaigns are asked at once instead of at the next poll. Only a signal's pass
    // hands slots on, so two campaigns at their own limits never kick each other back and forth.
    if (signalled && batch.accountSlotsLeft > 0) await this.kickSiblings(batch.campaign);
  }

  /** The partner's other running campaigns with contacts due, each dispatched as after a sibling's release. */
  private async kickSiblings(campaign: { id: string; partner_id: string }): Promise<void> {
    const siblings = (await this.dataSource.query(
      `SELECT c.id FROM ${tableOf(this.dataSource, 'campaigns')} c
       WHERE c.partner_id = $1 AND c.status = 'running' AND c.id <> $2
         AND ${contactDue(tableOf(this.dataSource, 'contacts'), '$3')}
       ORDER BY c.started_at NULLS LAST, c.id
       LIMIT $4`,
      [campaign.partner_id, campaign.id, this.clock.now(), CAMPAIGN_BATCH],
    )) as { id: string }[];
    for (const { id } of siblings) this.kick(id, 'sibling');
  }

  /** Due retries, stale claims and campaigns with nothing left: what no signal announces. */
  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      await this.reconcileStaleClaims();
      const now = this.clock.now();
      // Only campaigns that could dial now: a campaign or an account with every slot taken gets its pass
      // from the release that frees one (its signal here, or this poll once the release committed
      // elsewhere), so passes that could claim nothing are not run every interval for every campaign.
      const t = (name: string) => tableOf(this.dataSource, name);
      const due = (await this.dataSource.query(
        `SELECT c.id FROM ${t('campaigns')} c LEFT JOIN ${t('partner_snapshots')} p ON p.id = c.partner_id
         WHERE c.status = 'running'
           AND ${contactDue(t('contacts'), '$1')}
           AND (SELECT count(*) FROM ${t('attempts')} a WHERE a.partner_id = c.partner_id AND a.campaign_id = c.id
             AND a.status IN ('dialing', 'active')) < c.concurrency_limit
           AND (SELECT count(*) FROM ${t('attempts')} a WHERE a.partner_id = c.partner_id
             AND a.status IN ('dialing', 'active')) < CASE WHEN p.concurrency_limit > 0 THEN p.concurrency_limit ELSE $3 END
         LIMIT $2`,
        [now, CAMPAIGN_BATCH, DEFAULT_ACCOUNT_LIMIT],
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

/** SQL: campaign `c` has a contact to dial by the timestamp parameter `now` (a query placeholder such as `$1`). */
function contactDue(contacts: string, now: string): string {
  return `EXISTS (SELECT 1 FROM ${contacts} k WHERE k.campaign_id = c.id
    AND k.status IN ('pending', 'retry_wait') AND k.next_attempt_at <= ${now})`;
}
