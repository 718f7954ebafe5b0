import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, DomainEvents, SessionCompletedData } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { CallChargeService } from './call-charge.service';

/**
 * The fast path of billing: debits each completed session's charge in the transaction of the inbox row.
 * A redelivered or repeated event finds the call's ledger entry and debits nothing twice; a lost one is
 * charged by the BillingReconciler.
 */
@Injectable()
export class CallChargesConsumer {
  constructor(private readonly charges: CallChargeService) {}

  // In order, one batch at a time: the sessions waiting together are debited in one transaction.
  @OnDomainEvent(DomainEvents.sessionCompleted, { batch: 32 })
  async charge(event: DomainEvent<SessionCompletedData>, em: EntityManager): Promise<void> {
    if (!event.partnerId) return;
    await this.charges.charge(em, {
      partnerId: event.partnerId,
      callId: event.data.call_id,
      amountPaise: event.data.credits_used_paise,
      // Events written before bill_seconds was carried: the answered duration is what was billed.
      billedSeconds: event.data.bill_seconds ?? event.data.duration_seconds,
      // Events written before the rate was carried: priced at the standard rate.
      billingRate: event.data.billing_rate ?? 'standard',
      agentId: event.data.agent_id ?? null,
      campaignId: event.data.campaign_id ?? null,
      projectId: event.data.project_id ?? null,
      browserSessionId: event.data.browser_session_id ?? null,
      // Events written before the providers were carried leave them out: not known.
      platformSpeechProviders: event.data.platform_speech_providers ?? null,
      // Likewise the model use.
      modelUsage: event.data.model_usage ?? null,
    });
  }
}
