import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CampaignStatus } from '@vap/api';
import { CampaignStatusUpdatedData, DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { CampaignRow } from './campaign-row';

/** Records events.campaign.status_updated in the transaction that moved the campaign. */
@Injectable()
export class CampaignStatusEvents {
  constructor(private readonly outbox: OutboxService) {}

  async record(em: EntityManager, row: CampaignRow, previous: CampaignStatus): Promise<void> {
    const data: CampaignStatusUpdatedData = {
      campaign_id: row.id,
      name: row.name,
      agent_id: row.agent_id,
      agent_name: row.agent_name,
      status: row.status,
      previous_status: previous,
      total_contacts: row.total_contacts,
      completed_count: row.completed_count,
      failed_count: row.failed_count,
      skipped_count: row.skipped_count,
      occurred_at: row.updated_at.toISOString(),
    };
    await this.outbox.record(em, DomainEvents.campaignStatusUpdated, row.partner_id, data);
  }
}
