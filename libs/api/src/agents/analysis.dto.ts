import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import {
  ANALYSIS_LIMITS,
  ANALYSIS_STATUSES,
  AnalysisConfig,
  AnalysisDefaults,
  AnalysisStatus,
  CallAnalysis,
  SuccessEvaluation,
} from '@vap/messages';
import { IfPresent } from '../validation';
import { NullableText } from './agent-field.decorators';

const THRESHOLD = ANALYSIS_LIMITS.success_threshold;
const RANGE_THRESHOLD = `success_threshold must be an integer ${THRESHOLD.min} to ${THRESHOLD.max}`;

/** What the whole object does, for the agent's field. */
export const ANALYSIS_DESCRIPTION =
  'Post-call analysis of every answered call, run with extraction once the call ends: a short summary, and, when ' +
  'success_rubric is set, a success evaluation in which a model judges the transcript against the rubric and gives ' +
  'a score out of 10 with its reasons (passed when the score reaches success_threshold). The result is the ' +
  "session's analysis, in GET /calls/{id} and in session.completed. Without an LLM server the offline engine " +
  'summarises with the opening lines and scores by how many of the rubric’s words the conversation covers.';

const SUMMARY_ENABLED_DESCRIPTION = 'true: every answered call gets a summary of a few sentences';
const SUMMARY_INSTRUCTIONS_DESCRIPTION =
  'What the summary should say or leave out (for example "Name the product asked about"), added to the ' +
  "platform's instructions; null or empty = none";
const RUBRIC_DESCRIPTION =
  'What a successful call achieves, in your words (for example "The caller booked an appointment and confirmed ' +
  'the date"); null or empty = no success evaluation';
const THRESHOLD_DESCRIPTION = `The score out of 10 a call needs to pass; ${THRESHOLD.min}..${THRESHOLD.max}`;

/**
 * analysis_config as a request gives it. At creation omitted fields take their defaults; on update the fields sent
 * replace the stored ones and the others are kept.
 */
export class AnalysisConfigInputDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: AnalysisDefaults.summary_enabled,
    description: SUMMARY_ENABLED_DESCRIPTION,
  })
  @IfPresent()
  @IsBoolean({ message: 'summary_enabled must be a boolean' })
  summary_enabled?: boolean;

  @NullableText(ANALYSIS_LIMITS.summary_instructions.maxLength, SUMMARY_INSTRUCTIONS_DESCRIPTION)
  summary_instructions?: string | null;

  @NullableText(ANALYSIS_LIMITS.success_rubric.maxLength, RUBRIC_DESCRIPTION)
  success_rubric?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: THRESHOLD.min,
    maximum: THRESHOLD.max,
    default: AnalysisDefaults.success_threshold,
    description: THRESHOLD_DESCRIPTION,
  })
  @IfPresent()
  @Min(THRESHOLD.min, { message: RANGE_THRESHOLD })
  @Max(THRESHOLD.max, { message: RANGE_THRESHOLD })
  @IsInt({ message: RANGE_THRESHOLD })
  success_threshold?: number;
}

/** analysis_config as the agent's record answers it: every field, defaults applied. */
export class AnalysisConfigDto implements AnalysisConfig {
  @ApiProperty({ description: SUMMARY_ENABLED_DESCRIPTION })
  summary_enabled: boolean;

  @ApiProperty({ type: String, nullable: true, description: SUMMARY_INSTRUCTIONS_DESCRIPTION })
  summary_instructions: string | null;

  @ApiProperty({ type: String, nullable: true, description: RUBRIC_DESCRIPTION })
  success_rubric: string | null;

  @ApiProperty({ type: 'integer', description: THRESHOLD_DESCRIPTION })
  success_threshold: number;
}

export class SuccessEvaluationDto implements SuccessEvaluation {
  @ApiProperty({ description: 'score >= threshold' })
  passed: boolean;

  @ApiProperty({ type: Number, minimum: 0, maximum: 10, description: "The judge's score out of 10" })
  score: number;

  @ApiProperty({ type: 'integer', description: "The agent's success_threshold when the call started" })
  threshold: number;

  @ApiProperty({ description: "The judge's reasons" })
  reasons: string;
}

/** A session's post-call analysis, shaped as extraction is. */
export class CallAnalysisDto implements CallAnalysis {
  @ApiProperty({
    enum: ANALYSIS_STATUSES,
    description:
      'success, failed (see error; the call is still completed), skipped (nothing to analyse, see error)',
  })
  status: AnalysisStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The model that analysed (offline-rules-v1 without an LLM server)',
  })
  model: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  analyzedAt: string | null;

  @ApiProperty({ type: Number, nullable: true })
  latencyMs: number | null;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ type: String, nullable: true, description: 'A few sentences; null when the summary is off' })
  summary: string | null;

  @ApiProperty({
    type: SuccessEvaluationDto,
    nullable: true,
    description: 'null when the agent has no success_rubric',
  })
  success: SuccessEvaluationDto | null;

  @ApiProperty({ type: String, nullable: true })
  error: string | null;
}
