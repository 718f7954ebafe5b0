import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsInt, Matches, Max, Min, ValidateIf } from 'class-validator';
import { SEND_SMS_MAX_PER_CALL } from '@vap/messages';

/** The most countries an account lists (there are fewer than this many). */
export const SMS_ALLOWED_COUNTRIES_MAX = 250;
export const ISO_COUNTRY_PATTERN = /^[A-Z]{2}$/;

const given = (_: unknown, v: unknown) => v !== undefined && v !== null;

/** GET /messages/policy: where and how much the account may text, as it applies now. */
export class SmsPolicyDto {
  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['IN', 'AE'],
    description:
      "The countries (ISO 3166-1 alpha-2) the account set itself; null: it has not, and default_allowed_countries apply. A country listed here also lifts the fraud-risk block of that country's high_risk_prefixes",
  })
  allowed_countries: string[] | null;

  @ApiProperty({
    type: [String],
    example: ['IN', 'US'],
    description:
      "What applies while allowed_countries is null: the countries of the account's phone numbers and the platform's list",
  })
  default_allowed_countries: string[];

  @ApiProperty({
    description: 'Most messages the account sends in any 24 hours (its own cap, else the platform maximum)',
  })
  max_per_day: number;

  @ApiProperty({ description: 'The highest max_per_day the platform allows' })
  max_per_day_limit: number;

  @ApiProperty({ description: "Most messages one call's agent sends (send_sms)" })
  max_per_call: number;

  @ApiProperty({ description: 'The highest max_per_call the platform allows' })
  max_per_call_limit: number;

  @ApiProperty({ description: 'Outbound messages the account sent in the last 24 hours' })
  sent_last_24_hours: number;

  @ApiProperty({
    type: [String],
    example: ['+1900', '+882'],
    description: 'Premium-rate and satellite ranges, refused always with SMS_DESTINATION_BLOCKED',
  })
  blocked_prefixes: string[];

  @ApiProperty({
    type: [String],
    example: ['+53', '+37259'],
    description:
      'Ranges flagged for SMS fraud, refused with SMS_DESTINATION_BLOCKED unless allowed_countries names their country',
  })
  high_risk_prefixes: string[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null: never changed' })
  updated_at: string | null;
}

/** PATCH /messages/policy: fields left out keep their value; null restores the default. */
export class UpdateSmsPolicyDto {
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: SMS_ALLOWED_COUNTRIES_MAX,
    example: ['IN', 'AE'],
    description:
      "ISO 3166-1 alpha-2 codes; [] texts no country; null: the default (own numbers' and the platform's)",
  })
  @ValidateIf(given)
  @IsArray({ message: 'allowed_countries must be an array of ISO country codes or null' })
  @ArrayMaxSize(SMS_ALLOWED_COUNTRIES_MAX, {
    message: `allowed_countries holds at most ${SMS_ALLOWED_COUNTRIES_MAX} countries`,
  })
  @ArrayUnique({ message: 'allowed_countries lists a country twice' })
  @Matches(ISO_COUNTRY_PATTERN, {
    each: true,
    message: 'allowed_countries holds ISO 3166-1 alpha-2 codes in capitals, e.g. IN',
  })
  allowed_countries?: string[] | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    description: 'At most the platform’s max_per_day_limit; null: the limit',
  })
  @ValidateIf(given)
  @IsInt({ message: 'max_per_day must be an integer or null' })
  @Min(1, { message: 'max_per_day must be at least 1, or null' })
  max_per_day?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: SEND_SMS_MAX_PER_CALL,
    description: 'null: the limit, max_per_call_limit',
  })
  @ValidateIf(given)
  @IsInt({ message: 'max_per_call must be an integer or null' })
  @Min(1, { message: `max_per_call must be 1..${SEND_SMS_MAX_PER_CALL} or null` })
  @Max(SEND_SMS_MAX_PER_CALL, { message: `max_per_call must be 1..${SEND_SMS_MAX_PER_CALL} or null` })
  max_per_call?: number | null;
}
