import {
  CallingWindow,
  CampaignDto,
  CampaignPhoneNumberDto,
  CampaignStatus,
  CampaignType,
  CampaignWaitingReason,
} from '@vap/api';

/** A row of campaigns.campaigns as the repository reads it. */
export interface CampaignRow {
  id: string;
  partner_id: string;
  name: string;
  description: string;
  agent_id: string;
  agent_name: string;
  provider: string | null;
  type: CampaignType;
  phone_numbers: CampaignPhoneNumberDto[];
  concurrency_limit: number;
  retry_concurrency: number;
  retry_count: number;
  cooldown_minutes: number;
  retry_delays_minutes: number[];
  callback_enabled: boolean;
  calling_window: CallingWindow | null;
  status: CampaignStatus;
  pause_reason: string | null;
  total_contacts: number;
  completed_count: number;
  failed_count: number;
  skipped_count: number;
  started_at: Date | null;
  paused_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A running campaign all of whose remaining contacts wait on the contact policy (see CampaignWaits). */
export interface CampaignWait {
  reason: CampaignWaitingReason;
  until: Date | null;
}

export function toCampaignDto(row: CampaignRow, wait: CampaignWait | null = null): CampaignDto {
  return {
    campaign_id: row.id,
    name: row.name,
    description: row.description,
    agent_id: row.agent_id,
    agent_name: row.agent_name,
    provider: row.provider,
    type: row.type,
    phone_numbers: row.phone_numbers,
    concurrency_limit: row.concurrency_limit,
    retry_concurrency: row.retry_concurrency,
    retry_count: row.retry_count,
    cooldown_minutes: row.cooldown_minutes,
    retry_delays_minutes: row.retry_delays_minutes,
    callback_enabled: row.callback_enabled,
    calling_window: row.calling_window,
    status: row.status,
    waiting_reason: wait?.reason ?? null,
    waiting_until: iso(wait?.until ?? null),
    pause_reason: row.pause_reason,
    total_contacts: row.total_contacts,
    completed_count: row.completed_count,
    failed_count: row.failed_count,
    skipped_count: row.skipped_count,
    started_at: iso(row.started_at),
    paused_at: iso(row.paused_at),
    completed_at: iso(row.completed_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
