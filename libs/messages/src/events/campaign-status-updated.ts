/** Campaign statuses as partners see them (responses use lowercase). */
export type CampaignStatusValue = 'draft' | 'running' | 'paused' | 'completed' | 'canceled';

/**
 * data of campaign.status.updated (domain event events.campaign.status_updated), the sixth webhook event
 * type: a campaign moved between statuses (started, paused, resumed, finished). It is an agent event:
 * agent_id is the campaign's agent, so agent-scoped endpoints and the fan-out flag apply to it.
 */
export interface CampaignStatusUpdatedData {
  campaign_id: string;
  name: string;
  agent_id: string;
  agent_name: string | null;
  status: CampaignStatusValue;
  previous_status: CampaignStatusValue | null;
  total_contacts: number;
  completed_count: number;
  failed_count: number;
  skipped_count: number;
  occurred_at: string;
}
