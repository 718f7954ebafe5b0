import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { CallBillingRate, callChargeReference, CallModelUsage, DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { toPartnerDto } from '../accounts/partners.service';
import { LedgerEntry } from '../accounts/entities/ledger-entry.entity';
import { Partner } from '../accounts/entities/partner.entity';
import { GatewayConfig } from '../config/gateway.config';
import { resaleSplit } from './resale';

export interface CallCharge {
  partnerId: string;
  callId: string;
  /** The call's price as the calls service fixed it: at the account's own price (a client's rate card). */
  amountPaise: number;
  /** What the charge is for, kept on its ledger entry (GET /billing/transactions and /billing/usage). */
  billedSeconds: number;
  /** What the seconds were priced at (test: a test run's session at the test price). */
  billingRate: CallBillingRate;
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
  /**
   * The call's model use, per model that wrote its lines ([]: none); null when the calls service that reported
   * the charge did not say (older than per-agent models). Recorded beside the charge, never priced: model use
   * on the platform's keys is within the minute price.
   */
  modelUsage: readonly CallModelUsage[] | null;
}

export type ChargeOutcome = 'charged' | 'already_charged' | 'no_partner' | 'nothing_to_charge';

/**
 * Debits a call's charge from the partner's balance with its ledger entry, at most once per call: the
 * entry's reference `call:<id>` is looked up under the partner's row lock (and is unique in the ledger),
 * whichever path (session.completed or the billing reconciler) gets there first. The balance never goes
 * below zero; a charge larger than what is left takes the rest and the ledger says so. A reseller's client
 * pays the price the calls service fixed at its rate card, and its reseller's ledger gets the margin over
 * the platform's charge for the same seconds (docs/billing.md, "Reseller clients").
 */
@Injectable()
export class CallChargeService {
  private readonly logger = new Logger(CallChargeService.name);

  constructor(
    private readonly outbox: OutboxService,
    private readonly config: GatewayConfig,
  ) {}

  async charge(em: EntityManager, charge: CallCharge): Promise<ChargeOutcome> {
    const price = charge.amountPaise;
    if (!(price > 0)) return 'nothing_to_charge';
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
    const debit = Math.min(price, partner.balancePaise);
    if (debit < price) {
      this.logger.warn(
        `call ${charge.callId}: charge ${price} paise exceeds balance ${partner.balancePaise}`,
      );
    }
    partner.balancePaise -= debit;
    await em.save(partner);
    await em.insert(LedgerEntry, {
      id: randomUUID(),
      partnerId: partner.id,
      type: 'charge',
      amountPaise: -debit,
      balanceAfterPaise: partner.balancePaise,
      reason: debit < price ? `call_charge (short by ${price - debit} paise)` : 'call_charge',
      reference,
      ...this.whatFor(charge),
    });
    await this.outbox.record(em, DomainEvents.partnerUpdated, partner.id, toPartnerDto(partner));
    if (partner.resellerId) {
      // The reseller keeps what its client paid over the platform's charge, or pays what it fell short by.
      const { marginPaise } = resaleSplit(
        { billedSeconds: charge.billedSeconds, billingRate: charge.billingRate, pricePaise: price },
        debit,
        this.config.CALL_PRICE_PER_MINUTE_PAISE,
      );
      if (marginPaise !== 0) {
        await this.settleReseller(em, partner.resellerId, partner.id, charge, marginPaise);
      }
    }
    return 'charged';
  }

  /** What a charge is for, on its entry and on the reseller's resale entry alike. */
  private whatFor(charge: CallCharge): Partial<LedgerEntry> {
    return {
      callId: charge.browserSessionId ? null : charge.callId,
      browserSessionId: charge.browserSessionId,
      agentId: charge.agentId,
      campaignId: charge.campaignId,
      projectId: charge.projectId,
      billedSeconds: charge.billedSeconds,
      platformSpeechProviders: providerSet(charge.platformSpeechProviders),
      modelUsage: modelUsageOf(charge.modelUsage),
    };
  }

  /**
   * The reseller's side of its client's charge, in the same transaction (once: its reference `resale:<call>`
   * is unique, and the client's charge above is written once): the margin credited, or, when the client paid
   * less than the platform's charge, the difference debited (never below zero, like a charge).
   */
  private async settleReseller(
    em: EntityManager,
    resellerId: string,
    clientId: string,
    charge: CallCharge,
    marginPaise: number,
  ): Promise<void> {
    const reseller = await em.findOne(Partner, {
      where: { id: resellerId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!reseller) return;
    const amount = marginPaise > 0 ? marginPaise : -Math.min(-marginPaise, reseller.balancePaise);
    if (amount < marginPaise) {
      this.logger.warn(
        `call ${charge.callId}: reseller ${resellerId} short by ${amount - marginPaise} paise`,
      );
    }
    reseller.balancePaise += amount;
    await em.save(reseller);
    await em.insert(LedgerEntry, {
      id: randomUUID(),
      partnerId: reseller.id,
      type: 'resale',
      amountPaise: amount,
      balanceAfterPaise: reseller.balancePaise,
      reason: amount > marginPaise ? `resale (short by ${amount - marginPaise} paise)` : 'resale',
      reference: resaleReference(charge.callId),
      clientId,
      ...this.whatFor(charge),
    });
    await this.outbox.record(em, DomainEvents.partnerUpdated, reseller.id, toPartnerDto(reseller));
  }
}

/** The reseller's entry for its client's call: unique in the ledger, like the call's own charge. */
export const resaleReference = (callId: string) => `resale:${callId}`;

/** The providers as the ledger keeps them: names, each once, sorted (null stays unknown). */
export function providerSet(names: readonly unknown[] | null | undefined): string[] | null {
  if (!Array.isArray(names)) return null;
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n.length > 0))].sort();
}

/**
 * The model use as the ledger keeps it: each entry's documented fields, the well-formed ones only (a provider and
 * model named, paid_by account, platform or null, whole non-negative counts); null stays unknown.
 */
export function modelUsageOf(entries: readonly unknown[] | null | undefined): CallModelUsage[] | null {
  if (!Array.isArray(entries)) return null;
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return entries.flatMap((raw): CallModelUsage[] => {
    const e = raw as Partial<Record<keyof CallModelUsage, unknown>> | null;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof e.provider !== 'string' ||
      !e.provider ||
      typeof e.model !== 'string' ||
      !e.model ||
      !(e.paid_by === 'account' || e.paid_by === 'platform' || e.paid_by === null) ||
      !count(e.input_tokens) ||
      !count(e.output_tokens) ||
      !count(e.replies)
    )
      return [];
    return [
      {
        provider: e.provider as CallModelUsage['provider'],
        model: e.model,
        paid_by: e.paid_by,
        input_tokens: e.input_tokens,
        output_tokens: e.output_tokens,
        replies: e.replies,
      },
    ];
  });
}
