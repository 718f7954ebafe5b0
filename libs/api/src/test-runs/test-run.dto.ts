import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsInt,
  IsOptional,
  IsUUID,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { ANSWERING_MODEL_PROVIDERS, AnsweringModelProvider, TestScenarioId } from '@vap/messages';
import { CursorQueryDto } from '../pagination';
import { IfPresent, OptionalOneOf } from '../validation';
import { TEST_ASSERTION_KINDS } from './test-assertions';
import {
  TEST_ATTEMPT_STATUSES,
  TEST_RUN_ID_EXAMPLE,
  TEST_RUN_REPETITIONS_MAX,
  TEST_RUN_SCENARIOS_MAX,
  TEST_RUN_STATUSES,
  TEST_SCENARIO_ID_EXAMPLE,
  TEST_SCENARIO_MODES,
  type TestAttemptStatus,
  type TestRunStatus,
  type TestScenarioMode,
} from './test-limits';

export class CreateTestRunDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The agent under test; another account’s or a deleted one is 404',
  })
  @IsUUID('all', { message: 'agent_id must be an agent id (UUID)' })
  agent_id: string;

  @ApiProperty({
    type: [String],
    example: [TEST_SCENARIO_ID_EXAMPLE],
    minItems: 1,
    maxItems: TEST_RUN_SCENARIOS_MAX,
  })
  @IsArray({ message: 'scenario_ids must be an array of scenario ids' })
  @ArrayMinSize(1, { message: 'scenario_ids must name at least one scenario' })
  @ArrayMaxSize(TEST_RUN_SCENARIOS_MAX, {
    message: `scenario_ids names at most ${TEST_RUN_SCENARIOS_MAX} scenarios`,
  })
  @ArrayUnique({ message: 'scenario_ids must not repeat a scenario' })
  @Matches(TestScenarioId.pattern, {
    each: true,
    message: 'scenario_ids must hold scenario ids (tsc_<uuid>)',
  })
  scenario_ids: string[];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: TEST_RUN_REPETITIONS_MAX,
    default: 1,
    description: 'How many times each scenario is played (to catch flaky behaviour)',
  })
  @IfPresent()
  @IsInt({ message: `repetitions must be a whole number from 1 to ${TEST_RUN_REPETITIONS_MAX}` })
  @Min(1, { message: `repetitions must be a whole number from 1 to ${TEST_RUN_REPETITIONS_MAX}` })
  @Max(TEST_RUN_REPETITIONS_MAX, {
    message: `repetitions must be a whole number from 1 to ${TEST_RUN_REPETITIONS_MAX}`,
  })
  repetitions?: number;
}

export class ListTestRunsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the runs of this agent' })
  @IsOptional()
  @IsUUID('all', { message: 'agent_id must be a UUID' })
  agent_id?: string;

  @OptionalOneOf(TEST_RUN_STATUSES)
  status?: TestRunStatus;
}

export class TestVerdictDto {
  @ApiProperty({ enum: TEST_ASSERTION_KINDS })
  kind: string;

  @ApiProperty()
  passed: boolean;

  @ApiProperty({ description: 'What was expected and what the call did' })
  detail: string;
}

export class TestJudgeVerdictDto {
  @ApiProperty({ minimum: 0, maximum: 1, description: 'How well the conversation met the rubric' })
  score: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  pass_threshold: number;

  @ApiProperty()
  passed: boolean;

  @ApiProperty({ description: 'The judge’s reasons' })
  reasons: string;

  @ApiProperty({ description: 'The model that judged ("offline" for the offline engine)' })
  model: string;
}

/** The model that wrote an agent line of a test call (as the session's transcript line names it). */
export class TestLineModelDto {
  @ApiProperty({
    enum: ANSWERING_MODEL_PROVIDERS,
    description:
      "The provider: the agent's model or a fallback it handed over to (`platform`: the deployment's default model, " +
      '`offline`: the offline engine)',
  })
  provider: AnsweringModelProvider;

  @ApiProperty({ example: 'claude-haiku-4-5', description: "The provider's model id" })
  model: string;
}

export class TestTranscriptLineDto {
  @ApiProperty({ enum: ['agent', 'caller'] })
  role: 'agent' | 'caller';

  @ApiProperty()
  text: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "agent lines: the turn's voice-to-voice latency, ms, as recorded (else as the test caller measured it)",
  })
  latency_ms: number | null;

  @ApiPropertyOptional({
    type: TestLineModelDto,
    nullable: true,
    description:
      "agent lines: the model that wrote the line, as the session recorded it (the agent's own models answer a " +
      'test call as they answer real calls); null for caller lines, lines no model wrote (the intro) and lines the ' +
      'test caller only heard. Absent from results recorded before it was kept',
  })
  model?: TestLineModelDto | null;
}

export class TestToolCallDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  arguments: Record<string, unknown>;

  @ApiProperty()
  outcome: string;
}

export class TestAttemptDto {
  @ApiProperty({ minimum: 1, maximum: TEST_RUN_REPETITIONS_MAX })
  attempt: number;

  @ApiProperty({
    enum: TEST_ATTEMPT_STATUSES,
    description:
      'passed: every assertion and the judge held; failed: one did not; error: the call could not be run',
  })
  status: TestAttemptStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The browser session the attempt talked over (GET /browser-sessions/{id})',
  })
  session_id: string | null;

  @ApiProperty({ type: [TestTranscriptLineDto] })
  transcript: TestTranscriptLineDto[];

  @ApiProperty({ type: [TestToolCallDto] })
  tool_calls: TestToolCallDto[];

  @ApiProperty({ type: String, nullable: true })
  end_reason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Signed URL of the session’s recording, when recorded',
  })
  recording_url: string | null;

  @ApiProperty({ type: [TestVerdictDto] })
  verdicts: TestVerdictDto[];

  @ApiProperty({ type: TestJudgeVerdictDto, nullable: true })
  judge: TestJudgeVerdictDto | null;

  @ApiProperty({ type: String, nullable: true, description: 'status error: why the attempt could not run' })
  error: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  started_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finished_at: string | null;
}

export class TestScenarioResultDto {
  @ApiProperty({ example: TEST_SCENARIO_ID_EXAMPLE })
  scenario_id: string;

  @ApiProperty({ description: 'The scenario’s name when the run was created' })
  name: string;

  @ApiProperty({ enum: TEST_SCENARIO_MODES })
  mode: TestScenarioMode;

  @ApiProperty({ description: 'Attempts that passed' })
  passed: number;

  @ApiProperty({ description: 'Attempts that finished (passed, failed or error)' })
  finished: number;

  @ApiProperty({ type: [TestAttemptDto] })
  attempts: TestAttemptDto[];
}

export class TestRunDto {
  @ApiProperty({ example: TEST_RUN_ID_EXAMPLE, description: 'trun_ followed by a UUID' })
  run_id: string;

  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ enum: TEST_RUN_STATUSES })
  status: TestRunStatus;

  @ApiProperty({ minimum: 1, maximum: TEST_RUN_REPETITIONS_MAX })
  repetitions: number;

  @ApiProperty({ description: 'Attempts in all (scenarios × repetitions)' })
  total: number;

  @ApiProperty()
  passed: number;

  @ApiProperty()
  failed: number;

  @ApiProperty({ description: 'Attempts that could not run' })
  errored: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'passed / finished attempts, 0 to 1 (two decimals); null before any finished',
  })
  pass_rate: number | null;

  @ApiProperty({ type: [TestScenarioResultDto] })
  results: TestScenarioResultDto[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  completed_at: string | null;
}

export class TestRunListDto {
  @ApiProperty({ type: [TestRunDto], description: 'Newest first' })
  runs: TestRunDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor for the next page; null on the last page',
  })
  next_cursor: string | null;
}
