import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CampaignDto, CampaignStateMessages, StartCampaignDto } from '@vap/api';
import {
  accountPricePerMinutePaise,
  AppError,
  ErrorCode,
  minimumStartBalancePaise,
  PartnerContext,
} from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { CampaignClock } from '../clock/campaign-clock';
import { CampaignsConfig } from '../config/campaigns.config';
import { DispatchSignal } from '../dispatch/dispatch-signal';
import { PartnerSnapshots } from '../partners/partner-snapshots';
import { CampaignReferences } from './campaign-references';
import { CampaignRow, toCampaignDto } from './campaign-row';
import { CampaignStatusEvents } from './campaign-status-event';
import { CampaignsRepository } from './campaigns.repository';
import { assertRetryConcurrency } from './campaigns.service';

/**
 * The campaign state table: draft -> running (start), running -> paused (pause), paused -> running
 * (resume), running -> completed (every contact final) and the platform's own pause when dialling cannot
 * go on. Each move locks the campaign row and records events.campaign.status_updated with it.
 */
@Injectable()
export class CampaignLifecycle {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CampaignsConfig,
    private readonly repo: CampaignsRepository,
    private readonly refs: CampaignReferences,
    private readonly events: CampaignStatusEvents,
    private readonly snapshots: PartnerSnapshots,
    private readonly signal: DispatchSignal,
    private readonly clock: CampaignClock,
  ) {}

  async start(partner: PartnerContext, id: string, input: StartCampaignDto): Promise<CampaignDto> {
    const current = await this.repo.find(partner.id, id);
    if (current.status !== 'draft') throw new AppError(ErrorCode.INVALID_STATE, CampaignStateMessages.start);
    const concurrency = input.concurrency_limit ?? current.concurrency_limit;
    const retryConcurrency = input.retry_concurrency ?? current.retry_concurrency;
    assertRetryConcurrency(concurrency, retryConcurrency);
    await this.refs.assertCallerIdsActive(partner.id, current.phone_numbers);
    if (current.total_contacts === 0)
      throw new AppError(
        ErrorCode.NO_CONTACTS,
        'The campaign has no contacts; add at least one before starting',
      );
    this.assertBalance(partner);
    await this.snapshots.save(partner);
    const row = await this.dataSource.transaction(async (em) => {
      const locked = await this.repo.lock(em, partner.id, id);
      if (locked.status !== 'draft') throw new AppError(ErrorCode.INVALID_STATE, CampaignStateMessages.start);
      const started = await this.repo.setStatus(em, id, 'running', {
        started: true,
        concurrency: [concurrency, retryConcurrency],
      });
      await this.events.record(em, started, 'draft');
      this.signal.notify(em, id);
      return started;
    });
    return toCampaignDto(row);
  }

  async pause(partnerId: string, id: string): Promise<CampaignDto> {
    const row = await this.dataSource.transaction(async (em) => {
      const locked = await this.repo.lock(em, partnerId, id);
      if (locked.status !== 'running')
        throw new AppError(ErrorCode.INVALID_STATE, CampaignStateMessages.pause);
      const paused = await this.repo.setStatus(em, id, 'paused', { paused: true });
      await this.events.record(em, paused, 'running');
      return paused;
    });
    return toCampaignDto(row);
  }

  /** paused -> running, under the start conditions that can have changed meanwhile: caller IDs and balance. */
  async resume(partner: PartnerContext, id: string): Promise<CampaignDto> {
    const current = await this.repo.find(partner.id, id);
    if (current.status !== 'paused')
      throw new AppError(ErrorCode.INVALID_STATE, CampaignStateMessages.resume);
    await this.refs.assertCallerIdsActive(partner.id, current.phone_numbers);
    this.assertBalance(partner);
    await this.snapshots.save(partner);
    const row = await this.dataSource.transaction(async (em) => {
      const locked = await this.repo.lock(em, partner.id, id);
      if (locked.status !== 'paused')
        throw new AppError(ErrorCode.INVALID_STATE, CampaignStateMessages.resume);
      const resumed = await this.repo.setStatus(em, id, 'running', {});
      // The account may have changed its window or caps while the campaign was paused.
      await this.repo.recheckPolicyWaits(em, id, this.clock.now());
      await this.events.record(em, resumed, 'paused');
      this.signal.notify(em, id);
      return resumed;
    });
    return toCampaignDto(row);
  }

  /** The dispatcher cannot go on (caller ID gone, balance spent): pause with the reason, in `em`. */
  async pauseBySystem(em: EntityManager, campaign: CampaignRow, reason: string): Promise<void> {
    const locked = await this.repo.lock(em, campaign.partner_id, campaign.id);
    if (locked.status !== 'running') return;
    const paused = await this.repo.setStatus(em, campaign.id, 'paused', {
      paused: true,
      pauseReason: reason,
    });
    await this.events.record(em, paused, 'running');
  }

  /** running -> completed once no contact can be dialled again. */
  async completeIfDone(em: EntityManager, partnerId: string, campaignId: string): Promise<boolean> {
    // Locked first: an upload adds contacts under the same lock, so none can slip in after the check.
    const locked = await this.repo.lock(em, partnerId, campaignId);
    if (locked.status !== 'running' || locked.total_contacts === 0) return false;
    const [open] = (await em.query(
      `SELECT EXISTS (SELECT 1 FROM ${tableOf(em, 'contacts')} WHERE campaign_id = $1 AND status IN ('pending', 'dialing', 'retry_wait')) AS open`,
      [campaignId],
    )) as { open: boolean }[];
    if (open.open) return false;
    const completed = await this.repo.setStatus(em, campaignId, 'completed', { completed: true });
    await this.events.record(em, completed, 'running');
    return true;
  }

  private assertBalance(partner: PartnerContext): void {
    const minimum = minimumStartBalancePaise(
      accountPricePerMinutePaise(partner, this.config.CALL_PRICE_PER_MINUTE_PAISE),
    );
    if (partner.balancePaise < minimum) {
      throw new AppError(
        ErrorCode.INSUFFICIENT_BALANCE,
        `Insufficient balance: a campaign needs at least INR ${(minimum / 100).toFixed(2)} (one 30-second call) to start`,
      );
    }
  }
}
