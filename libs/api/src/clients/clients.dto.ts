import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { VOICE_TIERS, VoiceTier } from '@vap/messages';
import { ApiKeySummaryDto, PARTNER_STATUSES, PartnerStatus } from '../accounts/accounts.dto';
import { IsRupees } from '../accounts/rupees.validator';
import { CursorQueryDto, NextCursor } from '../pagination';
import { IfPresent } from '../validation';

/** Client accounts a reseller may hold: each is an account of its own, so the number is bounded. */
export const MAX_RESELLER_CLIENTS = 1000;

/** The highest price per minute a rate card may set, in rupees: a guard against a typo of a few zeros. */
export const MAX_CLIENT_PRICE_PER_MINUTE_INR = 1000;

/** The most a single funding moves, in rupees (the operator's balance bound). */
export const MAX_CLIENT_FUNDING_INR = 100_000_000;

export class CreateClientDto {
  @ApiProperty({ minLength: 1, maxLength: 200, description: 'The client account’s name' })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiPropertyOptional({ maxLength: 254, description: 'The client’s contact email, kept for the reseller' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 1000,
    description:
      'Simultaneous calls the client may run: at most the reseller’s own concurrency limit (400 above it). ' +
      'Default: 5, or the reseller’s limit when lower.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  concurrency_limit?: number;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0.01,
    maximum: MAX_CLIENT_PRICE_PER_MINUTE_INR,
    description:
      'The rate card: what the client is charged a minute of answered call, in rupees (billed per second). ' +
      'At least the platform’s price a minute (400 below it). Omitted or null: the platform’s price, no margin.',
  })
  @IsOptional()
  @IsRupees()
  @Min(0.01)
  @Max(MAX_CLIENT_PRICE_PER_MINUTE_INR)
  price_per_minute_inr?: number | null;
}

/** Omitted fields stay as they are. */
export class UpdateClientDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IfPresent()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 254, description: 'null clears it' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'At most the reseller’s own limit' })
  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(1000)
  concurrency_limit?: number;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0.01,
    maximum: MAX_CLIENT_PRICE_PER_MINUTE_INR,
    description:
      'The rate card in rupees a minute, at least the platform’s price; null: the platform’s price. Applies to ' +
      'the calls charged from now on.',
  })
  @IsOptional()
  @IsRupees()
  @Min(0.01)
  @Max(MAX_CLIENT_PRICE_PER_MINUTE_INR)
  price_per_minute_inr?: number | null;
}

export class FundClientDto {
  @ApiProperty({
    minimum: 0.01,
    maximum: MAX_CLIENT_FUNDING_INR,
    example: 500,
    description: 'Rupees (two decimals) moved from the reseller’s balance to the client’s',
  })
  @IsRupees()
  @Min(0.01)
  @Max(MAX_CLIENT_FUNDING_INR)
  amount_inr: number;
}

export class ClientDto {
  @ApiProperty({ format: 'uuid', description: 'The client’s account (partner) id' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  email: string | null;

  @ApiProperty({ enum: PARTNER_STATUSES, description: 'suspended: its keys answer 403 FORBIDDEN' })
  status: PartnerStatus;

  @ApiProperty({
    type: String,
    enum: ['operator', 'reseller', 'reseller_account'],
    nullable: true,
    description:
      'Who suspended a suspended client: operator, reseller (only this one can be resumed by the reseller), or ' +
      'reseller_account (held while the reseller’s own account is suspended; lifted when it is approved again)',
  })
  suspended_by: 'operator' | 'reseller' | 'reseller_account' | null;

  @ApiProperty({ description: 'Balance in rupees' })
  balance_inr: number;

  @ApiProperty()
  concurrency_limit: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The rate card in rupees a minute; null: the platform’s price',
  })
  price_per_minute_inr: number | null;

  @ApiProperty({ enum: VOICE_TIERS, description: 'The reseller’s tier when the client was created' })
  voice_tier: VoiceTier;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class CreatedClientDto {
  @ApiProperty({ type: ClientDto })
  client: ClientDto;

  @ApiProperty({
    description: 'The client’s first API key (full access to its own account). Shown only now.',
    example: 'rg_live_...',
  })
  api_key: string;

  @ApiProperty({ type: ApiKeySummaryDto })
  key: ApiKeySummaryDto;
}

export class ClientListDto {
  @ApiProperty({ type: [ClientDto] })
  clients: ClientDto[];

  @NextCursor()
  next_cursor: string | null;
}

export class ClientFundingDto {
  @ApiProperty({ format: 'uuid', description: 'The transfer, named by both ledger entries (description)' })
  transfer_id: string;

  @ApiProperty({ description: 'Rupees moved' })
  amount_inr: number;

  @ApiProperty({ description: 'The reseller’s balance in rupees right after the transfer' })
  reseller_balance_inr: number;

  @ApiProperty({ type: ClientDto })
  client: ClientDto;
}

export class ClientAuditQueryDto extends CursorQueryDto {}

/** One request a reseller's key made on behalf of the client (X-On-Behalf-Of). */
export class ClientAuditEntryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', description: 'The reseller’s API key that made the request' })
  api_key_id: string;

  @ApiProperty({ example: 'POST' })
  method: string;

  @ApiProperty({ example: '/api/v2/agent', description: 'The path requested, without its query' })
  path: string;

  @ApiProperty({ example: 200, description: 'The HTTP status answered' })
  status: number;

  @ApiProperty({ type: String, nullable: true, description: 'The request’s X-Request-Id' })
  request_id: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class ClientAuditListDto {
  @ApiProperty({ type: [ClientAuditEntryDto], description: 'Newest first' })
  entries: ClientAuditEntryDto[];

  @NextCursor()
  next_cursor: string | null;
}
