import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  DTMF_INPUT_PREFIX,
  DTMF_LIMITS,
  DTMF_TERMINATORS,
  DtmfDefaults,
  DtmfInputConfig,
  DtmfTerminator,
} from '@vap/messages';
import { IfPresent } from '../validation';

const DIGITS = DTMF_LIMITS.max_digits;
const TIMEOUT = DTMF_LIMITS.timeout_ms;
const RANGE_DIGITS = `max_digits must be ${DIGITS.min} to ${DIGITS.max} or null`;
const RANGE_TIMEOUT = `timeout_ms must be ${TIMEOUT.min} to ${TIMEOUT.max} (ms)`;

/** What the whole object does, for the agent's field. */
export const DTMF_DESCRIPTION =
  "The caller's key presses (DTMF touch tones). When enabled, keys are collected into an entry that ends when " +
  'the terminator is pressed, when max_digits keys have been pressed, or timeout_ms after the last key; the ' +
  `entry then reaches the model as the caller's turn, written "${DTMF_INPUT_PREFIX} <digits>" followed by the ` +
  `terminator when one ended it (for example "${DTMF_INPUT_PREFIX} 4711 #"), and is kept so in the transcript. ` +
  'A key pressed while the agent speaks interrupts it, as speech does. Disabled: key presses are ignored.';

const ENABLED_DESCRIPTION = "true: the caller's key presses reach the model as caller input";
const MAX_DIGITS_DESCRIPTION =
  `The entry ends once it has this many digits (a fixed-length entry such as an account number); ` +
  `${DIGITS.min}..${DIGITS.max}, null = no fixed length (entries hold at most ${DIGITS.max} digits)`;
const TERMINATOR_DESCRIPTION = 'A key that ends the entry early; it is not one of the digits. null = none';
const TIMEOUT_DESCRIPTION = `Silence on the keypad (ms) after the last key that ends the entry; ${TIMEOUT.min}..${TIMEOUT.max}`;

/**
 * dtmf as a request gives it. At creation omitted fields take their defaults; on update the fields sent replace
 * the stored ones and the others are kept.
 */
export class DtmfInputDto {
  @ApiPropertyOptional({ type: Boolean, default: DtmfDefaults.enabled, description: ENABLED_DESCRIPTION })
  @IfPresent()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: DIGITS.min,
    maximum: DIGITS.max,
    default: DtmfDefaults.max_digits,
    description: MAX_DIGITS_DESCRIPTION,
  })
  @IsOptional()
  @Min(DIGITS.min, { message: RANGE_DIGITS })
  @Max(DIGITS.max, { message: RANGE_DIGITS })
  @IsInt({ message: 'max_digits must be an integer or null' })
  max_digits?: number | null;

  @ApiPropertyOptional({
    type: String,
    enum: DTMF_TERMINATORS,
    nullable: true,
    default: DtmfDefaults.terminator,
    description: TERMINATOR_DESCRIPTION,
  })
  @IsOptional()
  @IsIn(DTMF_TERMINATORS as unknown as string[], {
    message: `terminator must be one of ${DTMF_TERMINATORS.join(', ')} or null`,
  })
  terminator?: DtmfTerminator | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: TIMEOUT.min,
    maximum: TIMEOUT.max,
    default: DtmfDefaults.timeout_ms,
    description: TIMEOUT_DESCRIPTION,
  })
  @IfPresent()
  @Min(TIMEOUT.min, { message: RANGE_TIMEOUT })
  @Max(TIMEOUT.max, { message: RANGE_TIMEOUT })
  @IsInt({ message: 'timeout_ms must be an integer' })
  timeout_ms?: number;
}

/** dtmf as the agent's record answers it: every field, defaults applied. */
export class DtmfDto implements DtmfInputConfig {
  @ApiProperty({ description: ENABLED_DESCRIPTION })
  enabled: boolean;

  @ApiProperty({ type: 'integer', nullable: true, description: MAX_DIGITS_DESCRIPTION })
  max_digits: number | null;

  @ApiProperty({ type: String, enum: DTMF_TERMINATORS, nullable: true, description: TERMINATOR_DESCRIPTION })
  terminator: DtmfTerminator | null;

  @ApiProperty({ type: 'integer', description: TIMEOUT_DESCRIPTION })
  timeout_ms: number;
}

/** What sms_enabled does, for the agent's field. */
export const SMS_ENABLED_DESCRIPTION =
  'true: the model gets a send_sms tool to text the person on the call during it (a confirmation, a link), sent ' +
  "like POST /messages from the call's number (contact policy included), at most 3 per call.";

/** What sms_allowed_recipients does, for the agent's field. */
export const SMS_RECIPIENTS_DESCRIPTION =
  'Whom send_sms may text: caller (the other party of the call only) or any (any number the model gives).';

/** What send_dtmf_enabled does, for the agent's field. */
export const SEND_DTMF_DESCRIPTION =
  'true: the model gets a send_dtmf tool to press keys on the call (digits 0-9, *, #, A-D; w pauses half a ' +
  'second), for example to navigate the phone menu of the number it called. Carriers with a send-digits ' +
  'request get one; on the others the tones are played into the call.';
