import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  TURN_TAKING_LIMITS,
  TURN_TAKING_MODES,
  TURN_TAKING_PRESETS,
  TurnTakingConfig,
  TurnTakingDefaults,
  TurnTakingMode,
} from '@vap/messages';
import { IfPresent } from '../validation';

/** Each mode's silence bounds, as the descriptions give them: "fast 150..900 ms, ...". */
const MODE_BOUNDS = TURN_TAKING_MODES.map((mode) => {
  const preset = TURN_TAKING_PRESETS[mode];
  return `${mode} ${preset.min_silence_ms}..${preset.max_silence_ms} ms`;
}).join(', ');

const MIN = TURN_TAKING_LIMITS.min_silence_ms;
const MAX = TURN_TAKING_LIMITS.max_silence_ms;
const RANGE_MIN = `min_silence_ms must be ${MIN.min} to ${MIN.max} (ms) or null`;
const RANGE_MAX = `max_silence_ms must be ${MAX.min} to ${MAX.max} (ms) or null`;

/** What the whole object does, for the agent's field. */
export const TURN_TAKING_DESCRIPTION =
  "How the agent takes turns with the caller. The caller's turn ends after min_silence_ms of silence when " +
  'what they said is complete (a finished sentence or question), after max_silence_ms when it is plainly ' +
  'unfinished (a trailing "and", "so", "um", a number being read out), and a third of the way between the two ' +
  `when the words are not known yet. The mode sets both bounds (min..max: ${MODE_BOUNDS}); min_silence_ms ` +
  "and max_silence_ms override the mode's. The minimum in force may not exceed the maximum in force.";

const MODE_DESCRIPTION = `Sets both silence bounds (min..max): ${MODE_BOUNDS}`;

const MIN_SILENCE_DESCRIPTION =
  "Silence (ms) that ends the caller's turn when what they said is complete (a finished sentence or question); " +
  `${MIN.min}..${MIN.max}, null = the mode's`;

const MAX_SILENCE_DESCRIPTION =
  'Silence (ms) that ends the caller\'s turn when it is plainly unfinished (a trailing "and", "so", "um", ' +
  `a number being read out); ${MAX.min}..${MAX.max}, null = the mode's`;

const BACKCHANNELS_DESCRIPTION =
  'true: short acknowledgements during the agent\'s speech ("yeah", "okay", "mm-hmm", "right", "haan", ' +
  '"achha") do not interrupt it and are not answered, but are kept in the transcript; caller sound that ' +
  'stops the agent and turns out to hold no words makes the agent resume the sentence it cut. false: any ' +
  'caller speech over the agent interrupts it.';

/**
 * turn_taking as a request gives it. At creation omitted fields take their defaults; on update the fields
 * sent replace the stored ones and the others are kept.
 */
export class TurnTakingInputDto {
  @ApiPropertyOptional({
    enum: TURN_TAKING_MODES,
    default: TurnTakingDefaults.mode,
    description: MODE_DESCRIPTION,
  })
  @IfPresent()
  @IsIn(TURN_TAKING_MODES as unknown as string[], {
    message: `mode must be one of ${TURN_TAKING_MODES.join(', ')}`,
  })
  mode?: TurnTakingMode;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: MIN.min,
    maximum: MIN.max,
    description: MIN_SILENCE_DESCRIPTION,
  })
  @IsOptional()
  @Min(MIN.min, { message: RANGE_MIN })
  @Max(MIN.max, { message: RANGE_MIN })
  @IsInt({ message: 'min_silence_ms must be an integer or null' })
  min_silence_ms?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: MAX.min,
    maximum: MAX.max,
    description: MAX_SILENCE_DESCRIPTION,
  })
  @IsOptional()
  @Min(MAX.min, { message: RANGE_MAX })
  @Max(MAX.max, { message: RANGE_MAX })
  @IsInt({ message: 'max_silence_ms must be an integer or null' })
  max_silence_ms?: number | null;

  @ApiPropertyOptional({
    type: Boolean,
    default: TurnTakingDefaults.ignore_backchannels,
    description: BACKCHANNELS_DESCRIPTION,
  })
  @IfPresent()
  @IsBoolean({ message: 'ignore_backchannels must be a boolean' })
  ignore_backchannels?: boolean;
}

/** turn_taking as the agent's record answers it: every field, defaults applied. */
export class TurnTakingDto implements TurnTakingConfig {
  @ApiProperty({ enum: TURN_TAKING_MODES, description: MODE_DESCRIPTION })
  mode: TurnTakingMode;

  @ApiProperty({ type: 'integer', nullable: true, description: MIN_SILENCE_DESCRIPTION })
  min_silence_ms: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: MAX_SILENCE_DESCRIPTION })
  max_silence_ms: number | null;

  @ApiProperty({ description: BACKCHANNELS_DESCRIPTION })
  ignore_backchannels: boolean;
}
