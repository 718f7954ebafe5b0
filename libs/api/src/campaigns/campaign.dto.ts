import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { CallingWindow, CallingWindowViewDto } from '../contact-policy/calling-window.dto';
import { CursorQueryDto } from '../pagination';
import { PHONE_NUMBER_ID_EXAMPLE } from '../telephony/phone-number.dto';
import {
  CAMPAIGN_ID_EXAMPLE,
  CAMPAIGN_STATUSES,
  CAMPAIGN_TYPES,
  CampaignStatus,
  CampaignType,
} from './campaign-limits';
import { OptionalOneOf } from '../validation';

export class CampaignPhoneNumberDto {
  @ApiProperty({ example: PHONE_NUMBER_ID_EXAMPLE })
  phone_number_id: string;

  @ApiProperty({ example: '+15550001234' })
  phone_number: string;
}

export const CAMPAIGN_WAITING_REASONS = ['waiting_for_window', 'waiting_for_frequency_cap'] as const;
export type CampaignWaitingReason = (typeof CAMPAIGN_WAITING_REASONS)[number];

/** The contract's Campaign, plus pause_reason, updated_at and the contact policy's fields. */
export class CampaignDto {
  @ApiProperty({ example: CAMPAIGN_ID_EXAMPLE, description: 'cmp_ followed by a UUID' })
  campaign_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ description: 'The agent’s name when the campaign was created or last updated' })
  agent_name: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The caller IDs’ carrier when they all share one, else null',
  })
  provider: string | null;

  @ApiProperty({ enum: CAMPAIGN_TYPES })
  type: CampaignType;

  @ApiProperty({ type: [CampaignPhoneNumberDto], description: 'Caller IDs, used in turn' })
  phone_numbers: CampaignPhoneNumberDto[];

  @ApiProperty({ minimum: 1, maximum: 10 })
  concurrency_limit: number;

  @ApiProperty()
  retry_concurrency: number;

  @ApiProperty()
  retry_count: number;

  @ApiProperty()
  cooldown_minutes: number;

  @ApiProperty({ type: [Number] })
  retry_delays_minutes: number[];

  @ApiProperty()
  callback_enabled: boolean;

  @ApiProperty({
    type: CallingWindowViewDto,
    nullable: true,
    description: "The campaign's own calling window; null: the account's (GET /contact-policy/settings)",
  })
  calling_window: CallingWindow | null;

  @ApiProperty({ enum: CAMPAIGN_STATUSES })
  status: CampaignStatus;

  @ApiProperty({
    enum: CAMPAIGN_WAITING_REASONS,
    nullable: true,
    description:
      'Set while a running campaign has nothing in flight and every remaining contact waits on the contact policy: waiting_for_window (at least one waits for its calling window), else waiting_for_frequency_cap; null otherwise (and in webhook events)',
  })
  waiting_reason: CampaignWaitingReason | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'With waiting_reason: when the first waiting contact is due again',
  })
  waiting_until: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the platform paused a running campaign by itself: CALLER_ID_INACTIVE, AGENT_NOT_FOUND or INSUFFICIENT_BALANCE (the calls service refused to dial), FORBIDDEN (the account is suspended); null after a pause by the API',
  })
  pause_reason: string | null;

  @ApiProperty()
  total_contacts: number;

  @ApiProperty({ description: 'Contacts whose call completed (answered)' })
  completed_count: number;

  @ApiProperty({ description: 'Contacts whose every attempt ended failed, busy or no_answer' })
  failed_count: number;

  @ApiProperty({
    description: 'Contacts given up without an answer for another reason (call canceled or refused)',
  })
  skipped_count: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  started_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  paused_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  completed_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class ListCampaignsQueryDto extends CursorQueryDto {
  @OptionalOneOf(CAMPAIGN_STATUSES)
  status?: CampaignStatus;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "Only campaigns whose agent is in this project now (a campaign belongs to its agent's project); " +
      "another account's or a deleted project is 404 NOT_FOUND",
  })
  @IsOptional()
  @IsUUID(undefined, { message: 'project_id must be a UUID' })
  project_id?: string;
}

export class CampaignListDto {
  @ApiProperty({ type: [CampaignDto], description: 'Newest first' })
  campaigns: CampaignDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor for the next page; null on the last page',
  })
  next_cursor: string | null;
}

export class CampaignDeletedDto {
  @ApiProperty({ example: CAMPAIGN_ID_EXAMPLE })
  campaign_id: string;

  @ApiProperty({ example: true })
  deleted: true;
}
