import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StartCallCommand } from '@vap/api';
import {
  accountPricePerMinutePaise,
  AppError,
  ErrorCode,
  minimumStartBalancePaise,
  PartnerContext,
  Subjects,
} from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { CampaignLifecycle } from '../campaigns/campaign-lifecycle.service';
import { CampaignReferences } from '../campaigns/campaign-references';
import { CampaignRow } from '../campaigns/campaign-row';
import { CampaignsConfig } from '../config/campaigns.config';
import { CampaignClock } from '../clock/campaign-clock';
import { AttemptsRepository } from './attempts.repository';
import { Claim } from './dispatch-claims';
import { ContactOutcomes } from './contact-outcomes';
import { DispatchSignal } from './dispatch-signal';
import { campaignDispatches } from './dispatch.metrics';

const kindOf = (claim: Claim) => (claim.attempt > 1 ? 'retry' : 'first');

/** How long a contact waits after the account had no free slot (its other calls hold them). */
const ACCOUNT_FULL_BACKOFF_MS = 1000;

/** The contact policy's deferrals: the contact waits for the error's retry_at, holding no slot meanwhile. */
const POLICY_WAITS: readonly ErrorCode[] = [
  ErrorCode.OUTSIDE_CALLING_WINDOW,
  ErrorCode.FREQUENCY_CAP_REACHED,
];

/** A deferral without a readable retry_at (an older calls service) is tried again after this long. */
const POLICY_WAIT_FALLBACK_MS = 60_000;

/**
 * Asks for one attempt's call at most this often when the calls service does not answer (a timeout, no
 * replica listening, a 5xx): the attempt's idempotency key makes asking again safe, and an answer now beats
 * leaving the claim to the reconciler for a whole lease.
 */
const START_CALL_TRIES = 3;
const START_CALL_RETRY_MS = 250;

const isUnanswered = (err: unknown) => !(err instanceof AppError) || err.status >= 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Refusals that stop the whole campaign until the partner fixes them: paused with the code as reason. */
const CAMPAIGN_STOPPERS: readonly ErrorCode[] = [
  ErrorCode.CALLER_ID_INACTIVE,
  ErrorCode.NOT_FOUND,
  ErrorCode.FORBIDDEN,
  ErrorCode.INSUFFICIENT_BALANCE,
];

/**
 * Places one claimed attempt through the calls service's start command, the only way campaigns dial.
 * Its answer decides the claim: a call (linked), a refusal that releases the claim, or no answer after a few
 * asks, in which case the claim stays until the reconciler finds out whether the call exists.
 */
@Injectable()
export class CallPlacer {
  private readonly logger = new Logger(CallPlacer.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CampaignsConfig,
    private readonly rpc: RpcClient,
    private readonly clock: CampaignClock,
    private readonly attempts: AttemptsRepository,
    private readonly lifecycle: CampaignLifecycle,
    private readonly outcomes: ContactOutcomes,
    private readonly refs: CampaignReferences,
    private readonly signal: DispatchSignal,
  ) {}

  async place(campaign: CampaignRow, partner: PartnerContext, claim: Claim): Promise<void> {
    const body: StartCallCommand = {
      agent_id: campaign.agent_id,
      to_number: claim.phoneNumber,
      phone_number_id: claim.phoneNumberId,
      variables: claim.variables,
      client_reference_id: claim.attemptId,
      // The attempt's own key: asking again after no answer gets the call the first ask placed, if it did.
      idempotency_key: `campaign-attempt:${claim.attemptId}`,
      // The contact policy judges the dial by the campaign's window and the contact's zone, and logs a stopped
      // dial against its campaign and contact.
      origin: {
        campaign_id: campaign.id,
        contact_id: claim.contactId,
        calling_window: campaign.calling_window,
        timezone: claim.timezone,
      },
    };
    for (let tries = 1; ; tries += 1) {
      try {
        const { call } = await this.rpc.request(Subjects.calls.callStart, partner, body, {
          timeoutMs: this.config.CAMPAIGNS_START_CALL_TIMEOUT_MS,
        });
        await this.attempts.linkCall(claim.attemptId, call.call_id);
        campaignDispatches.inc({ kind: kindOf(claim), outcome: 'placed' });
        return;
      } catch (err) {
        if (isUnanswered(err) && tries < START_CALL_TRIES) {
          await sleep(START_CALL_RETRY_MS * tries);
          continue;
        }
        await this.refused(campaign, partner, claim, err);
        return;
      }
    }
  }

  /**
   * The refusal as partners know it: the calls service's FORBIDDEN for a balance below one 30-second call
   * reads as INSUFFICIENT_BALANCE, a NOT_FOUND as a vanished caller ID (CALLER_ID_INACTIVE) or agent.
   */
  private async pauseReason(
    campaign: CampaignRow,
    partner: PartnerContext,
    error: AppError,
  ): Promise<string> {
    if (error.code === ErrorCode.FORBIDDEN) {
      const minimum = minimumStartBalancePaise(
        accountPricePerMinutePaise(partner, this.config.CALL_PRICE_PER_MINUTE_PAISE),
      );
      return partner.balancePaise < minimum ? ErrorCode.INSUFFICIENT_BALANCE : error.code;
    }
    if (error.code !== ErrorCode.NOT_FOUND) return error.code;
    try {
      await this.refs.assertCallerIdsActive(campaign.partner_id, campaign.phone_numbers);
      return 'AGENT_NOT_FOUND';
    } catch (err) {
      return err instanceof AppError && err.code === ErrorCode.CALLER_ID_INACTIVE ? err.code : error.code;
    }
  }

  private async refused(
    campaign: CampaignRow,
    partner: PartnerContext,
    claim: Claim,
    err: unknown,
  ): Promise<void> {
    const error = err instanceof AppError ? err : null;
    const kind = kindOf(claim);
    if (!error || isUnanswered(error)) {
      campaignDispatches.inc({ kind, outcome: 'unknown' });
      // The call may exist (a timeout, or a carrier that failed after the call was recorded): its events
      // or the reconciler settle the claim; releasing it now could dial the contact twice.
      this.logger.warn(
        `attempt ${claim.attemptId}: start-call failed (${error?.message ?? String(err)}); left to reconcile`,
      );
      return;
    }
    const waits = POLICY_WAITS.includes(error.code);
    campaignDispatches.inc({
      kind,
      outcome: error.code === ErrorCode.LIMIT_REACHED || waits ? 'deferred' : 'refused',
    });
    const reason = CAMPAIGN_STOPPERS.includes(error.code)
      ? await this.pauseReason(campaign, partner, error)
      : null;
    await this.dataSource.transaction(async (em) => {
      if (error.code === ErrorCode.LIMIT_REACHED) {
        await this.attempts.release(
          em,
          claim.attemptId,
          new Date(this.clock.now().getTime() + ACCOUNT_FULL_BACKOFF_MS),
        );
        return;
      }
      if (waits) {
        const retryAt = error.retryAt ? new Date(error.retryAt) : null;
        const due =
          retryAt && !Number.isNaN(retryAt.getTime())
            ? retryAt
            : new Date(this.clock.now().getTime() + POLICY_WAIT_FALLBACK_MS);
        // The slot is free for the campaign's other contacts at once, not at the next poll.
        if (await this.attempts.release(em, claim.attemptId, due, error.code))
          this.signal.notify(em, campaign.id);
        return;
      }
      if (reason) {
        const released = await this.attempts.release(em, claim.attemptId, this.clock.now());
        if (released) {
          this.logger.warn(`campaign ${campaign.id} paused: ${reason} (${error.message})`);
          await this.lifecycle.pauseBySystem(em, campaign, reason);
        }
        return;
      }
      // The calls service refuses this contact itself (e.g. its number): it is skipped, the rest go on.
      if (await this.outcomes.skipRefused(em, campaign, claim.attemptId, claim.contactId, error.code))
        this.logger.warn(`attempt ${claim.attemptId}: contact skipped (${error.code}: ${error.message})`);
    });
  }
}
