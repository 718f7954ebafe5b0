import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsoInstant } from './billing-transaction.dto';

export const USAGE_GROUPINGS = ['day', 'agent', 'campaign', 'project'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];
/** The grouping of GET /billing/usage when the request names none. */
export const USAGE_DEFAULT_GROUPING: UsageGrouping = 'day';

/** The longest range GET /billing/usage sums at once. */
export const USAGE_MAX_RANGE_DAYS = 366;

/** GET /billing/usage: the charges of [from, to), summed per group. */
export class BillingUsageQueryDto {
  @IsoInstant('from', 'Start of the range (inclusive)', true)
  from: string;

  @IsoInstant('to', `End of the range (exclusive); at most ${USAGE_MAX_RANGE_DAYS} days after from`, true)
  to: string;

  @ApiPropertyOptional({
    enum: USAGE_GROUPINGS,
    default: USAGE_DEFAULT_GROUPING,
    description: `day (UTC calendar day of the charge), agent, campaign or project; ${USAGE_DEFAULT_GROUPING} when absent`,
  })
  @IsOptional()
  @IsIn(USAGE_GROUPINGS as unknown as string[], {
    message: `group_by must be one of ${USAGE_GROUPINGS.join(', ')}`,
  })
  group_by: UsageGrouping = USAGE_DEFAULT_GROUPING;
}

/** Sums of the charges of a range or a group: the ledger's charge transactions, exactly. */
export class UsageFiguresDto {
  @ApiProperty({ example: 42, description: 'Calls and browser sessions charged' })
  calls: number;

  @ApiProperty({ example: 3780, description: 'Seconds billed' })
  billed_seconds: number;

  @ApiProperty({ example: 63, description: 'billed_seconds / 60, to two decimals' })
  minutes: number;

  @ApiProperty({ example: 472.5, description: 'Rupees charged (the charges’ amounts, as a positive sum)' })
  credits_inr: number;

  @ApiProperty({
    example: 1260,
    description:
      'Seconds billed for the calls and sessions that ran on at least one platform-paid speech provider: a ' +
      "cloud recognition or synthesis provider on the platform's keys rather than the account's own (the " +
      'charges whose GET /billing/transactions platform_speech_providers is not empty). Part of billed_seconds.',
  })
  platform_speech_billed_seconds: number;

  @ApiProperty({ example: 21, description: 'platform_speech_billed_seconds / 60, to two decimals' })
  platform_speech_minutes: number;

  @ApiProperty({
    type: 'integer',
    example: 48210,
    description:
      "Input tokens of the charged calls' models, every model and key (the charges' model_usage summed; charges " +
      'made before it was recorded count none)',
  })
  model_input_tokens: number;

  @ApiProperty({ type: 'integer', example: 3904, description: 'Output tokens, likewise' })
  model_output_tokens: number;

  @ApiProperty({
    type: 'integer',
    example: 12040,
    description:
      "The part of model_input_tokens on the platform's keys (paid_by platform): within the minute price, not " +
      'charged apart',
  })
  platform_model_input_tokens: number;

  @ApiProperty({ type: 'integer', example: 988, description: 'The part of model_output_tokens, likewise' })
  platform_model_output_tokens: number;
}

export class UsageBucketDto extends UsageFiguresDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-01-31',
    description:
      'The group: the UTC day (YYYY-MM-DD), or the agent, campaign or project id; null gathers the charges ' +
      'without one (no campaign, or made before the ledger recorded it)',
  })
  key: string | null;
}

export class BillingUsageDto {
  @ApiProperty({ format: 'date-time' })
  from: string;

  @ApiProperty({ format: 'date-time' })
  to: string;

  @ApiProperty({ enum: USAGE_GROUPINGS })
  group_by: UsageGrouping;

  @ApiProperty({ example: 'INR' })
  currency: 'INR';

  @ApiProperty({ type: [UsageBucketDto], description: 'One bucket per group with charges, in key order' })
  buckets: UsageBucketDto[];

  @ApiProperty({
    type: UsageFiguresDto,
    description: 'The sums over the whole range (the buckets add up to it)',
  })
  totals: UsageFiguresDto;
}
