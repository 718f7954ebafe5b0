import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { API_KEY_SCOPES, VOICE_TIERS, VoiceTier } from '@vap/messages';
import { IsRupees } from './rupees.validator';
import { IfPresent } from '../validation';

export const PARTNER_STATUSES = ['pending', 'approved', 'suspended'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

export class CreatePartnerDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'Opening balance in rupees (2 decimals)' })
  @IsOptional()
  @IsRupees()
  @Min(0)
  @Max(100_000_000)
  balance_inr?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 5 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  concurrency_limit?: number;

  @ApiPropertyOptional({ enum: PARTNER_STATUSES, default: 'approved' })
  @IsOptional()
  @IsIn(PARTNER_STATUSES as unknown as string[])
  status?: PartnerStatus;

  @ApiPropertyOptional({ enum: VOICE_TIERS, default: 'standard' })
  @IsOptional()
  @IsIn(VOICE_TIERS as unknown as string[])
  voice_tier?: VoiceTier;
}

/** Omitted fields stay as they are; null is refused (none of them can be empty). */
export class UpdatePartnerDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IfPresent()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({
    minimum: 0,
    description: 'New balance in rupees; the difference is written to the ledger',
  })
  @IfPresent()
  @IsRupees()
  @Min(0)
  @Max(100_000_000)
  balance_inr?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000 })
  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(1000)
  concurrency_limit?: number;

  @ApiPropertyOptional({ enum: PARTNER_STATUSES })
  @IfPresent()
  @IsIn(PARTNER_STATUSES as unknown as string[])
  status?: PartnerStatus;

  @ApiPropertyOptional({ enum: VOICE_TIERS })
  @IfPresent()
  @IsIn(VOICE_TIERS as unknown as string[])
  voice_tier?: VoiceTier;

  @ApiPropertyOptional({
    description:
      'true marks the partner a reseller (it may create and manage client accounts under /clients); false ' +
      'unmarks it, refused (409 CONFLICT) while it has clients. A client account cannot be a reseller (400).',
  })
  @IfPresent()
  @IsBoolean()
  reseller?: boolean;
}

/**
 * Active (unrevoked) API keys an account may hold: the rate limits count per key as well as per account,
 * and a key is a credential to keep track of. Issuing one more is 429 LIMIT_REACHED; revoke one first.
 */
export const MAX_ACTIVE_API_KEYS = 20;

export class CreateApiKeyDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'A label to recognise the key by' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({
    type: [String],
    enum: API_KEY_SCOPES,
    minItems: 1,
    maxItems: API_KEY_SCOPES.length,
    description:
      'What the key may do: `<resource>:read` or `<resource>:write` (write includes read), or `read_only` (every read). Omitted: full access.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'scopes must name at least one scope; omit it for full access' })
  @ArrayMaxSize(API_KEY_SCOPES.length)
  @IsIn(API_KEY_SCOPES, { each: true, message: `each scope must be one of: ${API_KEY_SCOPES.join(', ')}` })
  scopes?: string[];
}

export class PartnerDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: PARTNER_STATUSES })
  status: PartnerStatus;

  @ApiProperty({ description: 'Balance in rupees' })
  balance_inr: number;

  @ApiProperty()
  concurrency_limit: number;

  @ApiProperty({ enum: VOICE_TIERS })
  voice_tier: VoiceTier;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ description: 'Increases by one with every change to the partner (status, balance, limits)' })
  version: number;

  @ApiProperty({ description: 'Whether the partner is a reseller (manages client accounts)' })
  reseller: boolean;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'For a client account: the reseller that manages it; null otherwise',
  })
  reseller_id: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "For a client account: its rate card, what a minute of its calls costs it (INR, billed per second), set by its reseller; null: the platform's price",
  })
  price_per_minute_inr: number | null;
}

export class ApiKeySummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    example: 'rg_live_AbC123xy',
    description: 'The first characters of the key, to recognise it',
  })
  prefix: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({
    type: [String],
    enum: API_KEY_SCOPES,
    nullable: true,
    description: 'The scopes the key was given; null: full access',
  })
  scopes: string[] | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the key was last used (recorded at most once a minute)',
  })
  last_used_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revoked_at: string | null;
}

export class PartnerListDto {
  @ApiProperty({ type: [PartnerDto] })
  partners: PartnerDto[];
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeySummaryDto], description: 'Every key of the partner, revoked ones included' })
  api_keys: ApiKeySummaryDto[];
}

export class CreatedApiKeyDto {
  @ApiProperty({
    description: 'The full key. Shown only now; it cannot be retrieved later.',
    example: 'rg_live_...',
  })
  api_key: string;

  @ApiProperty({ type: ApiKeySummaryDto })
  key: ApiKeySummaryDto;
}

export class CreatedPartnerDto {
  @ApiProperty({ type: PartnerDto })
  partner: PartnerDto;

  @ApiProperty({ description: 'The partner’s first API key. Shown only now.', example: 'rg_live_...' })
  api_key: string;

  @ApiProperty({ type: ApiKeySummaryDto })
  key: ApiKeySummaryDto;
}

export class BalanceDto {
  @ApiProperty({ example: 1250.5, description: 'Current balance in rupees' })
  balance_inr: number;

  @ApiProperty({ example: 'INR' })
  currency: 'INR';

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}
