import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ContactPolicySettingsDto } from '@vap/api';
import { DomainEvent, DomainEvents } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { CampaignClock } from '../clock/campaign-clock';
import { DispatchSignal } from '../dispatch/dispatch-signal';
import { CampaignsRepository } from './campaigns.repository';

/**
 * The account changed its calling window or frequency caps: contacts of its running campaigns that wait on
 * the policy are asked again at once, as a resume or a campaign window change does, not at their old opening.
 */
@Injectable()
export class ContactPolicySettingsConsumer {
  constructor(
    private readonly repo: CampaignsRepository,
    private readonly signal: DispatchSignal,
    private readonly clock: CampaignClock,
  ) {}

  @OnDomainEvent(DomainEvents.contactPolicySettingsUpdated, {
    consumer: 'campaigns__contact_policy_settings_updated',
  })
  async onSettings(event: DomainEvent<ContactPolicySettingsDto>, em: EntityManager): Promise<void> {
    if (!event.partnerId) return;
    const due = await this.repo.recheckPartnerPolicyWaits(em, event.partnerId, this.clock.now());
    for (const campaignId of due) this.signal.notify(em, campaignId);
  }
}
