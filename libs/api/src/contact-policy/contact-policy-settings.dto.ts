import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { CallingWindow, CallingWindowDto, CallingWindowViewDto } from './calling-window.dto';
import { IfPresent } from '../validation';

export const MAX_ATTEMPTS_PER_DAY_LIMIT = 100;
export const MAX_ATTEMPTS_PER_7_DAYS_LIMIT = 700;

const given = (_: unknown, v: unknown) => v !== undefined && v !== null;

/** The account's contact policy settings as stored (the calls service owns them). */
export interface ContactPolicySettings {
  calling_window: CallingWindow | null;
  windows_apply_to_single_calls: boolean;
  max_attempts_per_day: number | null;
  max_attempts_per_7_days: number | null;
  updated_at: string | null;
}

export class ContactPolicySettingsDto implements ContactPolicySettings {
  @ApiProperty({
    type: CallingWindowViewDto,
    nullable: true,
    description: "The account's default calling window (campaigns may override it); null: no window",
  })
  calling_window: CallingWindow | null;

  @ApiProperty({
    description: 'Whether POST /calls/start is held to the calling window too (campaign dials always are)',
  })
  windows_apply_to_single_calls: boolean;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "Most calls placed to one number per day (the callee's local calendar day), across all campaigns and single calls; null: no cap",
  })
  max_attempts_per_day: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Most calls placed to one number in any 7 x 24 hours, across all campaigns and single calls; null: no cap',
  })
  max_attempts_per_7_days: number | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null: never changed' })
  updated_at: string | null;
}

/** PATCH /contact-policy/settings: fields left out keep their value; null clears a window or a cap. */
export class UpdateContactPolicySettingsDto {
  @ApiPropertyOptional({ type: CallingWindowDto, nullable: true })
  @ValidateIf(given)
  @IsObject({ message: 'calling_window must be an object or null' })
  @ValidateNested()
  @Type(() => CallingWindowDto)
  calling_window?: CallingWindowDto | null;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean({ message: 'windows_apply_to_single_calls must be a boolean' })
  windows_apply_to_single_calls?: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: MAX_ATTEMPTS_PER_DAY_LIMIT })
  @ValidateIf(given)
  @IsInt({ message: 'max_attempts_per_day must be an integer or null' })
  @Min(1, { message: `max_attempts_per_day must be 1..${MAX_ATTEMPTS_PER_DAY_LIMIT} or null` })
  @Max(MAX_ATTEMPTS_PER_DAY_LIMIT, {
    message: `max_attempts_per_day must be 1..${MAX_ATTEMPTS_PER_DAY_LIMIT} or null`,
  })
  max_attempts_per_day?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: MAX_ATTEMPTS_PER_7_DAYS_LIMIT })
  @ValidateIf(given)
  @IsInt({ message: 'max_attempts_per_7_days must be an integer or null' })
  @Min(1, { message: `max_attempts_per_7_days must be 1..${MAX_ATTEMPTS_PER_7_DAYS_LIMIT} or null` })
  @Max(MAX_ATTEMPTS_PER_7_DAYS_LIMIT, {
    message: `max_attempts_per_7_days must be 1..${MAX_ATTEMPTS_PER_7_DAYS_LIMIT} or null`,
  })
  max_attempts_per_7_days?: number | null;
}
