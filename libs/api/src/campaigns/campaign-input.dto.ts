import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CallingWindowDto } from '../contact-policy/calling-window.dto';
import { PhoneNumberId } from '@vap/messages';
import { PHONE_NUMBER_ID_EXAMPLE } from '../telephony/phone-number.dto';
import {
  CAMPAIGN_CONCURRENCY_MAX,
  CAMPAIGN_CONCURRENCY_MIN,
  CAMPAIGN_DESCRIPTION_MAX,
  CAMPAIGN_MAX_CALLER_IDS,
  CAMPAIGN_MAX_DELAY_MINUTES,
  CAMPAIGN_MAX_RETRY_COUNT,
  CAMPAIGN_MAX_RETRY_DELAYS,
  CAMPAIGN_NAME_MAX,
  CAMPAIGN_TYPES,
  CampaignType,
} from './campaign-limits';
import { IfPresent, trimString } from '../validation';

/**
 * The settings a campaign can be created or updated with. Every field is optional here; creation
 * requires name and agent_id (CreateCampaignDto). retry_concurrency <= concurrency_limit is checked by the
 * service on the resulting values, so that an update of one of them is judged against the other.
 */
export class CampaignSettingsDto {
  @ApiPropertyOptional({ maxLength: CAMPAIGN_DESCRIPTION_MAX, default: '' })
  @IfPresent()
  @IsString({ message: 'description must be a string' })
  @MaxLength(CAMPAIGN_DESCRIPTION_MAX, {
    message: `description must be at most ${CAMPAIGN_DESCRIPTION_MAX} characters`,
  })
  description?: string;

  @ApiPropertyOptional({
    type: [String],
    example: [PHONE_NUMBER_ID_EXAMPLE],
    maxItems: CAMPAIGN_MAX_CALLER_IDS,
    description:
      "Caller IDs: ids of the account's phone numbers (GET /phone-numbers), used in turn. Omitted or empty: " +
      "the account's default from-number. Each must be active when the campaign starts.",
  })
  @IfPresent()
  @IsArray({ message: 'phone_number_ids must be an array of phone number ids' })
  @ArrayMaxSize(CAMPAIGN_MAX_CALLER_IDS, {
    message: `phone_number_ids holds at most ${CAMPAIGN_MAX_CALLER_IDS} ids`,
  })
  @ArrayUnique({ message: 'phone_number_ids must not repeat an id' })
  @Matches(PhoneNumberId.pattern, {
    each: true,
    message: 'phone_number_ids must hold phone number ids (pn_<uuid>)',
  })
  phone_number_ids?: string[];

  @ApiPropertyOptional({
    minimum: CAMPAIGN_CONCURRENCY_MIN,
    maximum: CAMPAIGN_CONCURRENCY_MAX,
    default: 1,
    description: 'Calls dialled at once; clamped at dispatch by the account concurrency limit',
  })
  @IfPresent()
  @IsInt({ message: 'concurrency_limit must be an integer' })
  @Min(CAMPAIGN_CONCURRENCY_MIN, { message: 'concurrency_limit must be 1..10' })
  @Max(CAMPAIGN_CONCURRENCY_MAX, { message: 'concurrency_limit must be 1..10' })
  concurrency_limit?: number;

  @ApiPropertyOptional({
    minimum: 0,
    default: 0,
    description:
      'Slots kept for retries, 0..concurrency_limit: while retries are waiting, first attempts use at most ' +
      'concurrency_limit - retry_concurrency slots',
  })
  @IfPresent()
  @IsInt({ message: 'retry_concurrency must be an integer' })
  @Min(0, { message: 'retry_concurrency must be 0..concurrency_limit' })
  @Max(CAMPAIGN_CONCURRENCY_MAX, { message: 'retry_concurrency must be 0..concurrency_limit' })
  retry_concurrency?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: CAMPAIGN_MAX_RETRY_COUNT,
    default: 0,
    description: 'Retries of a contact whose attempt ended failed, busy or no_answer',
  })
  @IfPresent()
  @IsInt({ message: 'retry_count must be an integer' })
  @Min(0, { message: `retry_count must be 0..${CAMPAIGN_MAX_RETRY_COUNT}` })
  @Max(CAMPAIGN_MAX_RETRY_COUNT, { message: `retry_count must be 0..${CAMPAIGN_MAX_RETRY_COUNT}` })
  retry_count?: number;

  @ApiPropertyOptional({
    type: [Number],
    example: [5, 30],
    maxItems: CAMPAIGN_MAX_RETRY_DELAYS,
    description: 'Minutes to wait before retry i (the last value repeats); empty: retry as soon as allowed',
  })
  @IfPresent()
  @IsArray({ message: 'retry_delays_minutes must be an array of integers' })
  @ArrayMaxSize(CAMPAIGN_MAX_RETRY_DELAYS, {
    message: `retry_delays_minutes holds at most ${CAMPAIGN_MAX_RETRY_DELAYS} values`,
  })
  @IsInt({ each: true, message: 'retry_delays_minutes must hold integers' })
  @Min(0, { each: true, message: `retry_delays_minutes values must be 0..${CAMPAIGN_MAX_DELAY_MINUTES}` })
  @Max(CAMPAIGN_MAX_DELAY_MINUTES, {
    each: true,
    message: `retry_delays_minutes values must be 0..${CAMPAIGN_MAX_DELAY_MINUTES}`,
  })
  retry_delays_minutes?: number[];

  @ApiPropertyOptional({
    minimum: 0,
    maximum: CAMPAIGN_MAX_DELAY_MINUTES,
    default: 0,
    description: 'Minimum minutes between the end of one attempt and the next attempt to the same number',
  })
  @IfPresent()
  @IsInt({ message: 'cooldown_minutes must be an integer' })
  @Min(0, { message: `cooldown_minutes must be 0..${CAMPAIGN_MAX_DELAY_MINUTES}` })
  @Max(CAMPAIGN_MAX_DELAY_MINUTES, { message: `cooldown_minutes must be 0..${CAMPAIGN_MAX_DELAY_MINUTES}` })
  cooldown_minutes?: number;

  @ApiPropertyOptional({ default: false, description: 'Stored with the campaign' })
  @IfPresent()
  @IsBoolean({ message: 'callback_enabled must be a boolean' })
  callback_enabled?: boolean;

  @ApiPropertyOptional({
    type: CallingWindowDto,
    nullable: true,
    description:
      "This campaign's calling window, overriding the account's (PATCH /contact-policy/settings); null: the account's. " +
      "Judged in each callee's local time (the number's zone, else the contact's timezone, else this window's timezone); " +
      'a contact outside it waits, holding no concurrency slot, and is dialled when it opens.',
  })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsObject({ message: 'calling_window must be an object or null' })
  @ValidateNested()
  @Type(() => CallingWindowDto)
  calling_window?: CallingWindowDto | null;
}

export class CreateCampaignDto extends CampaignSettingsDto {
  @ApiProperty({ minLength: 1, maxLength: CAMPAIGN_NAME_MAX })
  @Transform(trimString)
  @IsDefined({ message: 'name is required' })
  @IsString()
  @Length(1, CAMPAIGN_NAME_MAX, { message: `name must be 1 to ${CAMPAIGN_NAME_MAX} characters` })
  name: string;

  @ApiProperty({ format: 'uuid', description: 'The agent that talks on every call; a deleted agent is 404' })
  @IsUUID('all', { message: 'agent_id must be an agent id (UUID)' })
  agent_id: string;

  @ApiPropertyOptional({ enum: CAMPAIGN_TYPES, default: 'outbound' })
  @IfPresent()
  @IsIn(CAMPAIGN_TYPES as unknown as string[], { message: 'type must be outbound' })
  type?: CampaignType;
}

/** PATCH: any settings, name and agent; type is fixed at creation. */
export class UpdateCampaignDto extends CampaignSettingsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: CAMPAIGN_NAME_MAX })
  @Transform(trimString)
  @IfPresent()
  @IsString({ message: 'name must be a string' })
  @Length(1, CAMPAIGN_NAME_MAX, { message: `name must be 1 to ${CAMPAIGN_NAME_MAX} characters` })
  name?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IfPresent()
  @IsUUID('all', { message: 'agent_id must be an agent id (UUID)' })
  agent_id?: string;
}

/** Optional body of POST /campaigns/{id}/start: omitted fields keep their current value. */
export class StartCampaignDto {
  @ApiPropertyOptional({ minimum: CAMPAIGN_CONCURRENCY_MIN, maximum: CAMPAIGN_CONCURRENCY_MAX })
  @IsOptional()
  @IsInt({ message: 'concurrency_limit must be an integer' })
  @Min(CAMPAIGN_CONCURRENCY_MIN, { message: 'concurrency_limit must be 1..10' })
  @Max(CAMPAIGN_CONCURRENCY_MAX, { message: 'concurrency_limit must be 1..10' })
  concurrency_limit?: number;

  @ApiPropertyOptional({ minimum: 0, description: '0..the resulting concurrency_limit' })
  @IsOptional()
  @IsInt({ message: 'retry_concurrency must be an integer' })
  @Min(0, { message: 'retry_concurrency must be 0..concurrency_limit' })
  @Max(CAMPAIGN_CONCURRENCY_MAX, { message: 'retry_concurrency must be 0..concurrency_limit' })
  retry_concurrency?: number;
}
