import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { callChargeReference, DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { toPartnerDto } from '../accounts/partners.service';
import { LedgerEntry } from '../accounts/entities/ledger-entry.entity';
import { Partner } from '../accounts/entities/partner.entity';

export interface CallCharge {
  partnerId: string;
  callId: string;
  amountPaise: number;
  /** What the charge is for, kept on its ledger entry (GET /billing/transactions and /billing/usage). */
  billedSeconds: number;
  agentId: string | null;
  campaignId: string | null;
  projectId: string | null;
  /** Set for a browser session (its id is its call id); null for a phone call. */
  browserSessionId: string | null;
  /**
   * Cloud speech providers that served the call on the platform's keys ([]: none); null when the calls
   * service that reported the charge did not say (older than per-account speech keys).
   */
  platformSpeechProviders: readonly string[] | null;
}

export type ChargeOutcome = 'charged' | 'already_charged' | 'no_partner' | 'nothing_to_charge';

/**
 * Debits a call's charge from the partner's balance with its ledger entry, at most once per call: the
 * entry's reference `call:<id>` is looked up under the partner's row lock (and is unique in the ledger),
 * whichever path (session.completed or the billing reconciler) gets there first. The balance never goes
 * below zero; a charge larger than what is left takes the rest and the ledger says so.
 */
@Injectable()
export class CallChargeService {
  private readonly logger = new Logger(CallChargeService.name);

  constructor(private readonly outbox: OutboxService) {}

  async charge(em: EntityManager, charge: CallCharge): Promise<ChargeOutcome> {
    const cost = charge.amountPaise;
    if (!(cost > 0)) return 'nothing_to_charge';
    const partner = await em.findOne(Partner, {
      where: { id: charge.partnerId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!partner) {
      this.logger.warn(`call ${charge.callId}: partner ${charge.partnerId} not found; charge dropped`);
      return 'no_partner';
    }
    const reference = callChargeReference(charge.callId);
    if (await em.exists(LedgerEntry, { where: { reference } })) return 'already_charged';
    const debit = Math.min(cost, partner.balancePaise);
    if (debit < cost) {
      this.logger.warn(`call ${charge.callId}: charge ${cost} paise exceeds balance ${partner.balancePaise}`);
    }
    partner.balancePaise -= debit;
    await em.save(partner);
    await em.insert(LedgerEntry, {
      id: randomUUID(),
      partnerId: partner.id,
      type: 'charge',
      amountPaise: -debit,
      balanceAfterPaise: partner.balancePaise,
      reason: debit < cost ? `call_charge (short by ${cost - debit} paise)` : 'call_charge',
      reference,
      callId: charge.browserSessionId ? null : charge.callId,
      browserSessionId: charge.browserSessionId,
      agentId: charge.agentId,
      campaignId: charge.campaignId,
      projectId: charge.projectId,
      billedSeconds: charge.billedSeconds,
      platformSpeechProviders: providerSet(charge.platformSpeechProviders),
    });
    await this.outbox.record(em, DomainEvents.partnerUpdated, partner.id, toPartnerDto(partner));
    return 'charged';
  }
}

/** The providers as the ledger keeps them: names, each once, sorted (null stays unknown). */
export function providerSet(names: readonly unknown[] | null | undefined): string[] | null {
  if (!Array.isArray(names)) return null;
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n.length > 0))].sort();
}
