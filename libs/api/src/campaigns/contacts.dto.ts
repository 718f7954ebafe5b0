import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject } from 'class-validator';
import { CursorQueryDto } from '../pagination';
import {
  CAMPAIGN_MAX_CONTACTS_PER_UPLOAD,
  CONTACT_STATUSES,
  CONTACT_VARIABLES_MAX_BYTES,
  ContactStatus,
} from './campaign-limits';
import { OptionalOneOf } from '../validation';

/**
 * One row of a JSON upload. Rows are judged one by one (see ContactRowReportDto), so their fields are
 * documented here but not validated as a whole body: one bad number must not refuse the others.
 */
export class ContactInputDto {
  @ApiProperty({ example: '+919876543210', description: 'E.164' })
  phone_number: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { customer_name: 'Asha' },
    description: `Pre-call variables of this contact’s calls, at most ${CONTACT_VARIABLES_MAX_BYTES / 1024} KB as JSON`,
  })
  variables?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 200, description: 'Your own reference of the contact' })
  external_id?: string;

  @ApiPropertyOptional({
    example: 'America/Chicago',
    description:
      "The contact's IANA time zone, for the calling window when the number does not fix one (e.g. a US toll-free or Canadian number)",
  })
  timezone?: string;
}

export class AddContactsDto {
  @ApiProperty({ type: [ContactInputDto], minItems: 1, maxItems: CAMPAIGN_MAX_CONTACTS_PER_UPLOAD })
  @IsArray({ message: 'contacts must be an array' })
  @ArrayMinSize(1, { message: 'contacts must hold at least one row' })
  @ArrayMaxSize(CAMPAIGN_MAX_CONTACTS_PER_UPLOAD, {
    message: `contacts holds at most ${CAMPAIGN_MAX_CONTACTS_PER_UPLOAD} rows`,
  })
  @IsObject({ each: true, message: 'each contact must be an object' })
  contacts: ContactInputDto[];
}

/**
 * campaigns.contact.add: one batch of an upload to campaign `id`. The gateway reads the upload (JSON or CSV),
 * judges every row (candidateFromJson), and sends the valid ones, as JSON rows (contactInputOf) with their
 * 1-based number in the upload, in batches of at most MESSAGE_BATCH_BYTES, one after the other (an upload
 * without valid rows sends one empty batch, which still checks the campaign). The reply reports the batch's
 * rows; total_contacts counts the campaign's contacts after it.
 */
export interface AddContactsBatch {
  id: string;
  rows: { row: number; contact: ContactInputDto }[];
}

export const CONTACT_REJECT_REASONS = [
  'invalid_number',
  'duplicate',
  'invalid_variables',
  'invalid_external_id',
  'invalid_timezone',
] as const;
export type ContactRejectReason = (typeof CONTACT_REJECT_REASONS)[number];

/**
 * One row's outcome. Kept to three small fields so that the report of a full upload stays well inside one
 * message; accepted contacts are listed with their ids by GET /campaigns/{id}/contacts, in upload order.
 */
export class ContactRowReportDto {
  @ApiProperty({ description: '1-based row of the upload (CSV: data rows after the header)' })
  row: number;

  @ApiProperty({ enum: ['accepted', 'rejected'] })
  status: 'accepted' | 'rejected';

  @ApiProperty({
    enum: CONTACT_REJECT_REASONS,
    nullable: true,
    description:
      'invalid_number (not E.164), duplicate (already in the campaign or earlier in this upload), invalid_variables (not an object, or too large), invalid_external_id, invalid_timezone (not an IANA zone); null when accepted',
  })
  reason: ContactRejectReason | null;
}

export class ContactsUploadReportDto {
  @ApiProperty()
  accepted: number;

  @ApiProperty()
  rejected: number;

  @ApiProperty({ description: 'Contacts of the campaign after this upload' })
  total_contacts: number;

  @ApiProperty({ type: [ContactRowReportDto], description: 'Every row of the upload, in order' })
  rows: ContactRowReportDto[];
}

export class ContactAttemptDto {
  @ApiProperty({ description: '1 for the first call, then one per retry' })
  attempt: number;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'null until the calls service accepted the call',
  })
  call_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The call’s terminal status; null while in flight',
  })
  call_status: string | null;

  @ApiProperty({ format: 'date-time' })
  started_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  ended_at: string | null;
}

export class CampaignContactDto {
  @ApiProperty({ example: 'cct_0d7f4c1f-2b11-4a8e-9a55-3f0c6a0e6d0b' })
  contact_id: string;

  @ApiProperty()
  phone_number: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  variables: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true })
  external_id: string | null;

  @ApiProperty({ enum: CONTACT_STATUSES })
  status: ContactStatus;

  @ApiProperty({ description: 'Calls placed to this contact so far' })
  attempts: number;

  @ApiProperty({ type: [String], description: 'Ids of the calls placed, oldest first' })
  call_ids: string[];

  @ApiProperty({ type: [ContactAttemptDto] })
  attempt_history: ContactAttemptDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Terminal status of the last call' })
  last_call_status: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'Why the contact was skipped without a call: the error code the dial was refused with (DO_NOT_CALL: the number is on the do-not-call list, see GET /contact-policy/decisions); null otherwise',
  })
  skip_reason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'What the contact waits for until next_attempt_at, when the contact policy deferred its dial: OUTSIDE_CALLING_WINDOW (its local time is outside the calling window) or FREQUENCY_CAP_REACHED (the number had its allowed calls); null otherwise',
  })
  wait_reason: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The contact's IANA time zone, if given" })
  timezone: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due (pending and retry_wait)',
  })
  next_attempt_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class ListContactsQueryDto extends CursorQueryDto {
  @OptionalOneOf(CONTACT_STATUSES)
  status?: ContactStatus;
}

export class ContactListDto {
  @ApiProperty({ type: [CampaignContactDto], description: 'In upload order' })
  contacts: CampaignContactDto[];

  @ApiProperty({ type: String, nullable: true })
  next_cursor: string | null;
}
