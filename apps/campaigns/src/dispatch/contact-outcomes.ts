import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallStatus } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { CampaignLifecycle } from '../campaigns/campaign-lifecycle.service';
import { CampaignRow } from '../campaigns/campaign-row';
import { CampaignClock } from '../clock/campaign-clock';
import { attemptOutcome } from './attempt-outcome';
import { AttemptRow } from './attempts.repository';
import { AttemptsRepository } from './attempts.repository';
import { DispatchSignal } from './dispatch-signal';

const COUNTER_OF = {
  completed: 'completed_count',
  failed: 'failed_count',
  skipped: 'skipped_count',
} as const;

/**
 * Settles an attempt whose call released its slot: the contact is scheduled for a retry or reaches its
 * final status, the campaign's counter moves with it, the campaign completes when nothing is left, and
 * every replica is told a slot is free. All in the caller's transaction.
 */
@Injectable()
export class ContactOutcomes {
  constructor(
    private readonly clock: CampaignClock,
    private readonly lifecycle: CampaignLifecycle,
    private readonly signal: DispatchSignal,
    private readonly attempts: AttemptsRepository,
  ) {}

  /**
   * A claim the calls service refused for its contact (e.g. the number is on the do-not-call list): the
   * attempt is abandoned, the contact skipped without counting the attempt, and the slot freed at once.
   * False when the claim was no longer open. The contact row is written once: a second update of a row
   * this transaction changed re-checks its foreign key, and that share lock on the campaign row deadlocked
   * with settlements updating the campaign's counters.
   */
  async skipRefused(
    em: EntityManager,
    campaign: CampaignRow,
    attemptId: string,
    contactId: string,
    code: string,
  ): Promise<boolean> {
    if (!(await this.attempts.abandon(em, attemptId))) return false;
    await this.finish(em, campaign, contactId, 'skipped', null, code, true);
    this.signal.notify(em, campaign.id);
    return true;
  }

  async settle(em: EntityManager, attempt: AttemptRow, callStatus: CallStatus): Promise<void> {
    const endedAt = this.clock.now();
    await em.query(
      `UPDATE ${tableOf(em, 'attempts')} SET status = 'ended', call_status = $2, ended_at = $3 WHERE id = $1`,
      [attempt.id, callStatus, endedAt],
    );
    const [campaign] = (await em.query(`SELECT * FROM ${tableOf(em, 'campaigns')} WHERE id = $1`, [
      attempt.campaign_id,
    ])) as CampaignRow[];
    if (!campaign) return;
    const outcome = attemptOutcome(callStatus, attempt.attempt, campaign);
    if (outcome.kind === 'retry') {
      await em.query(
        `UPDATE ${tableOf(em, 'contacts')} SET status = 'retry_wait', last_call_status = $2, next_attempt_at = $3, updated_at = now()
         WHERE id = $1`,
        [attempt.contact_id, callStatus, this.clock.after(endedAt, outcome.waitMinutes)],
      );
    } else {
      await this.finish(em, campaign, attempt.contact_id, outcome.status, callStatus);
    }
    this.signal.notify(em, campaign.id);
  }

  /**
   * A contact's final status, counted once on its campaign. `refused` is a claim the calls service refused
   * without a call: it does not count as an attempt.
   */
  async finish(
    em: EntityManager,
    campaign: CampaignRow,
    contactId: string,
    status: keyof typeof COUNTER_OF,
    callStatus: string | null,
    skipReason: string | null = null,
    refused = false,
  ): Promise<void> {
    await em.query(
      `UPDATE ${tableOf(em, 'contacts')} SET status = $2, last_call_status = COALESCE($3, last_call_status), next_attempt_at = NULL,
         skip_reason = $4, attempts = attempts - $5::int, updated_at = now() WHERE id = $1`,
      [contactId, status, callStatus, skipReason, refused ? 1 : 0],
    );
    await em.query(
      `UPDATE ${tableOf(em, 'campaigns')} SET ${COUNTER_OF[status]} = ${COUNTER_OF[status]} + 1, updated_at = now() WHERE id = $1`,
      [campaign.id],
    );
    await this.lifecycle.completeIfDone(em, campaign.partner_id, campaign.id);
  }
}
