import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ErrorCode, PartnerContext } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { CampaignLifecycle } from '../campaigns/campaign-lifecycle.service';
import { CampaignRow } from '../campaigns/campaign-row';
import { CampaignsConfig } from '../config/campaigns.config';
import { CampaignClock } from '../clock/campaign-clock';
import { PartnerSnapshots } from '../partners/partner-snapshots';
import { freeSlots, freshSlots, SlotState } from './slot-plan';

/** The calls service's limit for accounts that carry none. */
export const DEFAULT_ACCOUNT_LIMIT = 5;

/** One claimed contact: its attempt row exists and counts as in flight until its call releases concurrency. */
export interface Claim {
  attemptId: string;
  contactId: string;
  attempt: number;
  phoneNumber: string;
  variables: Record<string, unknown>;
  phoneNumberId: string;
  timezone: string | null;
}

export interface ClaimBatch {
  campaign: CampaignRow;
  partner: PartnerContext;
  claims: Claim[];
  /**
   * Account slots still free after this claim: the campaign could not use them (it is at its own limit or
   * has nothing due), so the partner's other campaigns may.
   */
  accountSlotsLeft: number;
}

interface ContactPick {
  id: string;
  seq: string;
  phone_number: string;
  variables: Record<string, unknown>;
  attempts: number;
  timezone: string | null;
}

/**
 * Claims due contacts of a running campaign for as many free slots as it has. Every claim of a partner runs
 * under one advisory lock and counts in-flight attempts in the database, so any number of replicas together
 * never exceed min(concurrency_limit, account limit) per campaign nor the account limit over its campaigns.
 * Claimed contacts are marked dialing in the same transaction: a crash after commit leaves attempts that
 * the reconciler settles, never a contact dialled twice.
 */
@Injectable()
export class DispatchClaims {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CampaignsConfig,
    private readonly clock: CampaignClock,
    private readonly partners: PartnerSnapshots,
    private readonly lifecycle: CampaignLifecycle,
  ) {}

  async claim(campaignId: string): Promise<ClaimBatch | null> {
    return this.dataSource.transaction(async (em) => {
      // The partner's dispatch lock, taken in the statement that finds the partner.
      const [head] = (await em.query(
        `SELECT partner_id, pg_advisory_xact_lock(hashtext('campaigns:dispatch:' || partner_id)) AS locked
         FROM ${tableOf(em, 'campaigns')} WHERE id = $1 AND status = 'running'`,
        [campaignId],
      )) as { partner_id: string }[];
      if (!head) return null;
      // Read again under the lock (the statement above saw the rows as they were before it waited): a
      // pause that committed meanwhile stops this claim.
      const [campaign] = (await em.query(
        `SELECT * FROM ${tableOf(em, 'campaigns')} WHERE id = $1 AND status = 'running'`,
        [campaignId],
      )) as CampaignRow[];
      const partner = campaign ? await this.partners.get(campaign.partner_id, em) : null;
      if (!campaign || !partner) return null;
      if (partner.status !== 'approved') {
        // A suspended (or no longer approved) account dials nothing; the partner sees why.
        await this.lifecycle.pauseBySystem(em, campaign, ErrorCode.FORBIDDEN);
        return null;
      }
      const state = await this.slotState(em, campaign, partner);
      const free = freeSlots(state);
      const accountFree = Math.max(0, state.accountLimit - state.partnerInFlight);
      if (free === 0) return { campaign, partner, claims: [], accountSlotsLeft: accountFree };
      const now = this.clock.now();
      const retries = await this.pick(em, campaignId, 'retry_wait', now, free);
      const waiting = await this.retriesWaiting(em, campaignId, retries);
      const freshCount = freshSlots(
        { ...state, retryInFlight: state.retryInFlight + retries.length },
        free - retries.length,
        waiting,
      );
      const fresh = freshCount > 0 ? await this.pick(em, campaignId, 'pending', now, freshCount) : [];
      const claims = await this.markDialing(em, campaign, [...retries, ...fresh], now);
      return { campaign, partner, claims, accountSlotsLeft: Math.max(0, accountFree - claims.length) };
    });
  }

  private async slotState(
    em: EntityManager,
    campaign: CampaignRow,
    partner: PartnerContext,
  ): Promise<SlotState> {
    const [counts] = (await em.query(
      `SELECT count(*) FILTER (WHERE campaign_id = $2)::int AS campaign,
              count(*) FILTER (WHERE campaign_id = $2 AND is_retry)::int AS retry,
              count(*)::int AS partner
       FROM ${tableOf(em, 'attempts')} WHERE partner_id = $1 AND status IN ('dialing', 'active')`,
      [campaign.partner_id, campaign.id],
    )) as { campaign: number; retry: number; partner: number }[];
    return {
      concurrencyLimit: campaign.concurrency_limit,
      retryConcurrency: campaign.retry_concurrency,
      accountLimit: partner.concurrencyLimit > 0 ? partner.concurrencyLimit : DEFAULT_ACCOUNT_LIMIT,
      campaignInFlight: counts.campaign,
      retryInFlight: counts.retry,
      partnerInFlight: counts.partner,
    };
  }

  private async pick(
    em: EntityManager,
    campaignId: string,
    status: string,
    now: Date,
    limit: number,
  ): Promise<ContactPick[]> {
    return (await em.query(
      `SELECT id, seq, phone_number, variables, attempts, timezone FROM ${tableOf(em, 'contacts')}
       WHERE campaign_id = $1 AND status = $2 AND next_attempt_at <= $3
       ORDER BY next_attempt_at, seq LIMIT $4 FOR UPDATE SKIP LOCKED`,
      [campaignId, status, now, limit],
    )) as ContactPick[];
  }

  private async retriesWaiting(
    em: EntityManager,
    campaignId: string,
    claimed: ContactPick[],
  ): Promise<boolean> {
    const [row] = (await em.query(
      `SELECT EXISTS (SELECT 1 FROM ${tableOf(em, 'contacts')} WHERE campaign_id = $1 AND status = 'retry_wait' AND NOT (id = ANY($2))) AS waiting`,
      [campaignId, claimed.map((c) => c.id)],
    )) as { waiting: boolean }[];
    return row.waiting;
  }

  private async markDialing(
    em: EntityManager,
    campaign: CampaignRow,
    picks: ContactPick[],
    now: Date,
  ): Promise<Claim[]> {
    if (picks.length === 0) return [];
    const lease = new Date(now.getTime() + this.config.CAMPAIGNS_CLAIM_LEASE_MS);
    const claims = picks.map((p) => {
      const attempt = p.attempts + 1;
      // Caller IDs are used in turn across contacts and across a contact's attempts.
      const caller = campaign.phone_numbers[(Number(p.seq) + attempt) % campaign.phone_numbers.length];
      return {
        attemptId: `cma_${randomUUID()}`,
        contactId: p.id,
        attempt,
        phoneNumber: p.phone_number,
        variables: p.variables,
        phoneNumberId: caller.phone_number_id,
        timezone: p.timezone,
      };
    });
    await em.query(
      `UPDATE ${tableOf(em, 'contacts')} SET status = 'dialing', attempts = attempts + 1, wait_reason = NULL, updated_at = now()
       WHERE id = ANY($1)`,
      [claims.map((c) => c.contactId)],
    );
    await em.query(
      `INSERT INTO ${tableOf(em, 'attempts')} (id, campaign_id, contact_id, partner_id, attempt, is_retry, status, lease_until, created_at)
       SELECT a.id, $1, a.contact, $2, a.n, a.n > 1, 'dialing', $5, $6
       FROM unnest($3::text[], $4::text[], $7::int[]) AS a(id, contact, n)`,
      [
        campaign.id,
        campaign.partner_id,
        claims.map((c) => c.attemptId),
        claims.map((c) => c.contactId),
        lease,
        now,
        claims.map((c) => c.attempt),
      ],
    );
    return claims;
  }
}
