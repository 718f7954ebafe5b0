import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { CursorQueryDto, NextCursor } from '../pagination';
import { E164_EXAMPLE, E164_PATTERN, OptionalOneOf, queryE164 } from '../validation';

/** The rules a dial is checked against, in the order they are checked. */
export const POLICY_RULES = ['do_not_call', 'calling_window', 'frequency_cap'] as const;
export type PolicyRule = (typeof POLICY_RULES)[number];

/**
 * refused: a single call was not placed; skipped: a campaign contact will not be dialled (do_not_call);
 * deferred: a campaign contact waits until retry_at (calling_window, frequency_cap).
 */
export const POLICY_OUTCOMES = ['refused', 'skipped', 'deferred'] as const;
export type PolicyOutcome = (typeof POLICY_OUTCOMES)[number];

/** single_call: POST /calls/start; campaign: a campaign dial; message: an SMS (POST /messages, send_sms). */
export const POLICY_DIAL_SOURCES = ['single_call', 'campaign', 'message'] as const;
export type PolicyDialSource = (typeof POLICY_DIAL_SOURCES)[number];

export class PolicyDecisionDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: E164_EXAMPLE, description: 'The number that was to be dialled' })
  number: string;

  @ApiProperty({ enum: POLICY_RULES, description: 'The rule that stopped the dial' })
  rule: PolicyRule;

  @ApiProperty({ enum: POLICY_OUTCOMES })
  outcome: PolicyOutcome;

  @ApiProperty({ enum: POLICY_DIAL_SOURCES, description: 'POST /calls/start, a campaign dial, or an SMS' })
  source: PolicyDialSource;

  @ApiProperty({ type: String, nullable: true, description: 'The campaign of a campaign dial' })
  campaign_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The campaign contact of a campaign dial' })
  contact_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'do_not_call: the entry that covers the number (dnc_...)',
  })
  do_not_call_id: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'calling_window: when the window opens; frequency_cap: when the cap allows a call again',
  })
  retry_at: string | null;

  @ApiProperty({ example: 'on the do-not-call list (opt_out)', description: 'What the rule found, in words' })
  detail: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class ListPolicyDecisionsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ example: E164_EXAMPLE, description: 'Only decisions about this number (+ as %2B)' })
  @IsOptional()
  @Transform(({ value }) => queryE164(value))
  @IsString()
  @Matches(E164_PATTERN, { message: 'number must be an E.164 number such as +919876543210' })
  number?: string;

  @OptionalOneOf(POLICY_RULES)
  rule?: PolicyRule;

  @OptionalOneOf(POLICY_OUTCOMES)
  outcome?: PolicyOutcome;

  @OptionalOneOf(POLICY_DIAL_SOURCES)
  source?: PolicyDialSource;

  @ApiPropertyOptional({ description: 'Only decisions of this campaign' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  campaign_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only decisions made at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'created_after must be an ISO 8601 date-time' })
  created_after?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only decisions made before this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'created_before must be an ISO 8601 date-time' })
  created_before?: string;
}

export class PolicyDecisionListDto {
  @ApiProperty({ type: [PolicyDecisionDto], description: 'Newest first' })
  decisions: PolicyDecisionDto[];

  @NextCursor()
  next_cursor: string | null;
}
