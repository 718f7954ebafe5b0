import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import { CursorQueryDto } from '../pagination';
import { IfPresent, trimString } from '../validation';
import {
  TEST_ASSERTION_KINDS,
  TEST_TRANSCRIPT_ROLES,
  assertionsProblems,
  type TestAssertion,
} from './test-assertions';
import {
  TEST_ASSERTIONS_MAX,
  TEST_GOAL_MAX,
  TEST_LINE_TEXT_MAX,
  TEST_LINES_MAX,
  TEST_MAX_TURNS_MAX,
  TEST_PAUSE_MS_DEFAULT,
  TEST_PAUSE_MS_MAX,
  TEST_PERSONA_MAX,
  TEST_RUBRIC_MAX,
  TEST_SCENARIO_ID_EXAMPLE,
  TEST_SCENARIO_MODES,
  TEST_SCENARIO_NAME_MAX,
  TEST_VARIABLES_MAX_BYTES,
  TEST_VARIABLES_MAX_KEYS,
  type TestScenarioMode,
} from './test-limits';

/** The assertions list, checked kind by kind; the message names the first wrong field (`assertions[i].field`). */
function IsTestAssertions(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTestAssertions',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => assertionsProblems(value).length === 0,
        defaultMessage: (args) => assertionsProblems(args?.value)[0] ?? 'assertions are invalid',
      },
    });
}

/** A small JSON object of call variables. */
function IsSmallVariables(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isSmallVariables',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `variables must be an object of at most ${TEST_VARIABLES_MAX_KEYS} keys and ${TEST_VARIABLES_MAX_BYTES} bytes as JSON`,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= TEST_VARIABLES_MAX_KEYS &&
          JSON.stringify(value).length <= TEST_VARIABLES_MAX_BYTES,
      },
    });
}

/** One line of the caller, said after `pause_ms` of quiet once the agent has finished its turn. */
export class TestLineDto {
  @ApiProperty({ minLength: 1, maxLength: TEST_LINE_TEXT_MAX, example: 'I would like to book a table.' })
  @Transform(trimString)
  @IsString({ message: 'lines[].text must be a string' })
  @Length(1, TEST_LINE_TEXT_MAX, { message: `lines[].text must be 1 to ${TEST_LINE_TEXT_MAX} characters` })
  text: string;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: TEST_PAUSE_MS_MAX,
    default: TEST_PAUSE_MS_DEFAULT,
    description: "Quiet after the agent's turn before the caller says the line, ms",
  })
  @IfPresent()
  @IsInt({ message: 'lines[].pause_ms must be a whole number of milliseconds' })
  @Min(0, { message: `lines[].pause_ms must be 0 to ${TEST_PAUSE_MS_MAX}` })
  @Max(TEST_PAUSE_MS_MAX, { message: `lines[].pause_ms must be 0 to ${TEST_PAUSE_MS_MAX}` })
  pause_ms?: number;
}

/** The LLM judge: a rubric the whole conversation is scored against (0 to 1) and the score it must reach. */
export class TestJudgeDto {
  @ApiProperty({
    minLength: 1,
    maxLength: TEST_RUBRIC_MAX,
    example: 'The agent books the table for the date the caller asks and confirms it.',
  })
  @Transform(trimString)
  @IsString({ message: 'judge.rubric must be a string' })
  @Length(1, TEST_RUBRIC_MAX, { message: `judge.rubric must be 1 to ${TEST_RUBRIC_MAX} characters` })
  rubric: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, default: 0.7, description: 'Pass when score >= this' })
  @IfPresent()
  @IsNumber({}, { message: 'judge.pass_threshold must be a number from 0 to 1' })
  @Min(0, { message: 'judge.pass_threshold must be a number from 0 to 1' })
  @Max(1, { message: 'judge.pass_threshold must be a number from 0 to 1' })
  pass_threshold?: number;
}

/**
 * One assertion: `kind` and the fields of that kind. tool_called {tool, arguments?, arguments_schema?};
 * tool_not_called {tool}; transcript_contains / transcript_not_contains {text, role?: agent|caller|any};
 * end_reason {equals}; extraction {key, equals}; latency {max_ms}.
 */
export class TestAssertionDto {
  @ApiProperty({ enum: TEST_ASSERTION_KINDS })
  kind: string;

  @ApiPropertyOptional({
    description: 'tool_called, tool_not_called: the tool’s name (built-in or function)',
  })
  tool?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'tool_called: values that one call’s arguments must have (deep equality per key)',
  })
  arguments?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'tool_called: a JSON Schema one call’s arguments must satisfy (type, required, properties, enum, ' +
      'minimum, maximum, items). Regular expressions (`pattern`, `patternProperties`) are refused anywhere in it.',
  })
  arguments_schema?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'transcript_contains / transcript_not_contains: text, case and spacing ignored',
  })
  text?: string;

  @ApiPropertyOptional({ enum: TEST_TRANSCRIPT_ROLES, default: 'any' })
  role?: string;

  @ApiPropertyOptional({ description: 'extraction: the extracted value’s key (else a call variable)' })
  key?: string;

  @ApiPropertyOptional({
    description: 'end_reason: the session’s end_reason; extraction: the value expected (any JSON value)',
    oneOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'array', items: {} },
      { type: 'object', additionalProperties: true, nullable: true },
    ],
  })
  equals?: unknown;

  @ApiPropertyOptional({ minimum: 1, maximum: 60000, description: 'latency: each agent turn’s budget, ms' })
  max_ms?: number;
}

/** Fields of a scenario; creation requires name, mode and lines. */
export class TestScenarioFieldsDto {
  @ApiPropertyOptional({
    maxLength: TEST_PERSONA_MAX,
    description: 'Who the caller is (simulated callers play it)',
  })
  @Transform(trimString)
  @IfPresent()
  @IsString({ message: 'persona must be a string' })
  @MaxLength(TEST_PERSONA_MAX, { message: `persona must be at most ${TEST_PERSONA_MAX} characters` })
  persona?: string;

  @ApiPropertyOptional({ maxLength: TEST_GOAL_MAX, description: 'What the caller wants from the call' })
  @Transform(trimString)
  @IfPresent()
  @IsString({ message: 'goal must be a string' })
  @MaxLength(TEST_GOAL_MAX, { message: `goal must be at most ${TEST_GOAL_MAX} characters` })
  goal?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: TEST_MAX_TURNS_MAX,
    description:
      'simulated: most caller lines the model writes (default: the number of lines). scripted: ignored (the lines are the turns)',
  })
  @IfPresent()
  @IsInt({ message: 'max_turns must be a whole number' })
  @Min(1, { message: `max_turns must be 1 to ${TEST_MAX_TURNS_MAX}` })
  @Max(TEST_MAX_TURNS_MAX, { message: `max_turns must be 1 to ${TEST_MAX_TURNS_MAX}` })
  max_turns?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The call variables the session starts with (as POST /browser-sessions variables)',
  })
  @IfPresent()
  @IsObject({ message: 'variables must be an object' })
  @IsSmallVariables()
  variables?: Record<string, unknown>;

  @ApiPropertyOptional({ type: [TestAssertionDto], maxItems: TEST_ASSERTIONS_MAX, default: [] })
  @IfPresent()
  @IsTestAssertions()
  assertions?: TestAssertion[];

  @ApiPropertyOptional({ type: TestJudgeDto, nullable: true, description: 'The LLM judge; null: none' })
  @IfPresent()
  @ValidateNested()
  @Type(() => TestJudgeDto)
  judge?: TestJudgeDto | null;
}

export class CreateTestScenarioDto extends TestScenarioFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: TEST_SCENARIO_NAME_MAX, example: 'Books a table for two' })
  @Transform(trimString)
  @IsDefined({ message: 'name is required' })
  @IsString({ message: 'name must be a string' })
  @Length(1, TEST_SCENARIO_NAME_MAX, { message: `name must be 1 to ${TEST_SCENARIO_NAME_MAX} characters` })
  name: string;

  @ApiProperty({
    enum: TEST_SCENARIO_MODES,
    description:
      'scripted: the caller says `lines` in order. simulated: a chat model plays the caller from persona and ' +
      'goal; without a configured model (the offline engine) it says `lines` in order',
  })
  @IsIn(TEST_SCENARIO_MODES as unknown as string[], { message: 'mode must be scripted or simulated' })
  mode: TestScenarioMode;

  @ApiProperty({ type: [TestLineDto], minItems: 1, maxItems: TEST_LINES_MAX })
  @IsArray({ message: 'lines must be an array of lines' })
  @ArrayMinSize(1, { message: 'lines must hold at least one line' })
  @ArrayMaxSize(TEST_LINES_MAX, { message: `lines holds at most ${TEST_LINES_MAX} lines` })
  @ValidateNested({ each: true })
  @Type(() => TestLineDto)
  lines: TestLineDto[];
}

/** PATCH: any field; omitted fields keep their value. */
export class UpdateTestScenarioDto extends TestScenarioFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: TEST_SCENARIO_NAME_MAX })
  @Transform(trimString)
  @IfPresent()
  @IsString({ message: 'name must be a string' })
  @Length(1, TEST_SCENARIO_NAME_MAX, { message: `name must be 1 to ${TEST_SCENARIO_NAME_MAX} characters` })
  name?: string;

  @ApiPropertyOptional({ enum: TEST_SCENARIO_MODES })
  @IfPresent()
  @IsIn(TEST_SCENARIO_MODES as unknown as string[], { message: 'mode must be scripted or simulated' })
  mode?: TestScenarioMode;

  @ApiPropertyOptional({ type: [TestLineDto], minItems: 1, maxItems: TEST_LINES_MAX })
  @IfPresent()
  @IsArray({ message: 'lines must be an array of lines' })
  @ArrayMinSize(1, { message: 'lines must hold at least one line' })
  @ArrayMaxSize(TEST_LINES_MAX, { message: `lines holds at most ${TEST_LINES_MAX} lines` })
  @ValidateNested({ each: true })
  @Type(() => TestLineDto)
  lines?: TestLineDto[];
}

export class TestLineViewDto {
  @ApiProperty()
  text: string;

  @ApiProperty()
  pause_ms: number;
}

export class TestJudgeViewDto {
  @ApiProperty()
  rubric: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  pass_threshold: number;
}

export class TestScenarioDto {
  @ApiProperty({ example: TEST_SCENARIO_ID_EXAMPLE, description: 'tsc_ followed by a UUID' })
  scenario_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: TEST_SCENARIO_MODES })
  mode: TestScenarioMode;

  @ApiProperty()
  persona: string;

  @ApiProperty()
  goal: string;

  @ApiProperty({ type: [TestLineViewDto] })
  lines: TestLineViewDto[];

  @ApiProperty({ type: Number, nullable: true })
  max_turns: number | null;

  @ApiProperty({ type: 'object', additionalProperties: true })
  variables: Record<string, unknown>;

  @ApiProperty({ type: [TestAssertionDto] })
  assertions: TestAssertion[];

  @ApiProperty({ type: TestJudgeViewDto, nullable: true })
  judge: TestJudgeViewDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class TestScenarioListDto {
  @ApiProperty({ type: [TestScenarioDto], description: 'Newest first' })
  scenarios: TestScenarioDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor for the next page; null on the last page',
  })
  next_cursor: string | null;
}

export class ListTestScenariosQueryDto extends CursorQueryDto {}

export class TestScenarioDeletedDto {
  @ApiProperty({ example: TEST_SCENARIO_ID_EXAMPLE })
  scenario_id: string;

  @ApiProperty({ example: true })
  deleted: true;
}
