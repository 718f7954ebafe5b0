import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import {
  CallSegment,
  HANDOFF_CONTEXT_MODES,
  HANDOFF_LAST_TURNS_DEFAULT,
  HANDOFF_LIMITS,
  HandoffConfig,
  HandoffContextMode,
} from '@vap/messages';
import { IfPresent } from '../validation';
import { IsDistinct } from './agent-field.decorators';

const TURNS = HANDOFF_LIMITS.lastTurns;

/** What the whole list does, for the agent's field. */
export const HANDOFFS_DESCRIPTION =
  `Agents of this account this one may hand the call to (a squad), at most ${HANDOFF_LIMITS.perAgent}. Each ` +
  'destination is a tool handoff_to_<name> offered to the model with its description; when the model calls it, ' +
  'the next agent takes the call over: its prompt, tools, knowledge and functions, with the context the destination ' +
  "names (the whole conversation, its last turns, or a summary written at the handoff) and the call's variables " +
  '(all, or the ones named). The call keeps its voice, turn taking, recording and maximum duration, and stays one ' +
  "call: one charge, one transcript, one session.completed, with the agents that held it in its session's " +
  `segments. A call hands off at most ${HANDOFF_LIMITS.perCall} times; after that the agent holding it keeps it.`;

const NAME_DESCRIPTION =
  'The tool is handoff_to_<name>: lower-case letters, digits and _, at most 32, unique';
const DESCRIPTION_DESCRIPTION =
  'When to hand off, for the model (for example "The caller asks about a bill")';
const AGENT_DESCRIPTION = 'The next agent: another agent of this account';
const MODE_DESCRIPTION =
  'What the next agent receives: full (the conversation as it was said), last_turns (the last last_turns caller ' +
  'and agent messages), summary (a few sentences the current agent’s model writes at the handoff)';
const TURNS_DESCRIPTION = `With last_turns: how many messages, ${TURNS.min}..${TURNS.max} (default ${HANDOFF_LAST_TURNS_DEFAULT}); null otherwise`;
const VARIABLES_DESCRIPTION =
  "The call variables that pass to the next agent (its prompt's {{name}} placeholders read them); null = all";

/** One destination as a request gives it. */
export class HandoffInputDto {
  @ApiProperty({ pattern: HANDOFF_LIMITS.name.source, description: NAME_DESCRIPTION })
  @Matches(HANDOFF_LIMITS.name, {
    message: 'name must be lower-case letters, digits and _ (starting with a letter), at most 32',
  })
  @IsString({ message: 'name must be a string' })
  name: string;

  @ApiProperty({
    minLength: 1,
    maxLength: HANDOFF_LIMITS.descriptionMax,
    description: DESCRIPTION_DESCRIPTION,
  })
  @MaxLength(HANDOFF_LIMITS.descriptionMax, {
    message: `description must be at most ${HANDOFF_LIMITS.descriptionMax} characters`,
  })
  @MinLength(1, { message: 'description must say when to hand off' })
  @IsString({ message: 'description must be a string' })
  description: string;

  @ApiProperty({ format: 'uuid', description: AGENT_DESCRIPTION })
  @IsUUID(undefined, { message: 'agent_id must be an agent id' })
  agent_id: string;

  @ApiPropertyOptional({ enum: HANDOFF_CONTEXT_MODES, default: 'full', description: MODE_DESCRIPTION })
  @IfPresent()
  @IsIn(HANDOFF_CONTEXT_MODES as unknown as string[], {
    message: `context_mode must be one of ${HANDOFF_CONTEXT_MODES.join(', ')}`,
  })
  context_mode?: HandoffContextMode;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: TURNS.min,
    maximum: TURNS.max,
    description: TURNS_DESCRIPTION,
  })
  @IsOptional()
  @Min(TURNS.min, { message: `last_turns must be ${TURNS.min} to ${TURNS.max} or null` })
  @Max(TURNS.max, { message: `last_turns must be ${TURNS.min} to ${TURNS.max} or null` })
  @IsInt({ message: `last_turns must be ${TURNS.min} to ${TURNS.max} or null` })
  last_turns?: number | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: HANDOFF_LIMITS.variablesMax,
    description: VARIABLES_DESCRIPTION,
  })
  @IsOptional()
  @IsDistinct()
  @Matches(HANDOFF_LIMITS.variableName, { each: true, message: 'variables must be variable names' })
  @ArrayMaxSize(HANDOFF_LIMITS.variablesMax, {
    message: `variables names at most ${HANDOFF_LIMITS.variablesMax} variables`,
  })
  @IsArray({ message: 'variables must be an array of names or null' })
  variables?: string[] | null;
}

/** One destination as the agent's record answers it: every field, defaults applied. */
export class HandoffDto implements HandoffConfig {
  @ApiProperty({ description: NAME_DESCRIPTION })
  name: string;

  @ApiProperty({ description: DESCRIPTION_DESCRIPTION })
  description: string;

  @ApiProperty({ format: 'uuid', description: AGENT_DESCRIPTION })
  agent_id: string;

  @ApiProperty({ enum: HANDOFF_CONTEXT_MODES, description: MODE_DESCRIPTION })
  context_mode: HandoffContextMode;

  @ApiProperty({ type: 'integer', nullable: true, description: TURNS_DESCRIPTION })
  last_turns: number | null;

  @ApiProperty({ type: [String], nullable: true, description: VARIABLES_DESCRIPTION })
  variables: string[] | null;
}

/** One stretch of a call held by one agent. */
export class CallSegmentDto implements CallSegment {
  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ type: String, nullable: true })
  agent_name: string | null;

  @ApiProperty({ format: 'date-time' })
  started_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null for the agent holding the call now, or that held it when it ended',
  })
  ended_at: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why this agent handed the call on (the model’s words); null for the last segment',
  })
  handoff_reason: string | null;
}
