import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsUUID, Matches } from 'class-validator';
import {
  INTEGRATION_LOG_EXCERPT_CHARS,
  INTEGRATION_OUTCOMES,
  INTEGRATION_REQUEST_KINDS,
  IntegrationOutcome,
  IntegrationRequestKind,
  MASKED_HEADER_VALUE,
} from '@vap/messages';
import { CursorQueryDto, NextCursor } from '../pagination';
import { OptionalOneOf } from '../validation';

export const INTEGRATION_LOG_ID_EXAMPLE = 'ilog_3f2b8c1e-5d4a-4b6c-9e7f-0a1b2c3d4e5f';

/** Function and hook ids as their owners write them (a UUID or a prefixed one): short, no spaces. */
const RESOURCE_REF = /^[A-Za-z0-9_.:-]{1,100}$/;

/** GET /integration-logs: newest first; every filter narrows the list. */
export class ListIntegrationLogsQueryDto extends CursorQueryDto {
  @OptionalOneOf(INTEGRATION_REQUEST_KINDS)
  kind?: IntegrationRequestKind;

  @OptionalOneOf(INTEGRATION_OUTCOMES)
  outcome?: IntegrationOutcome;

  @ApiPropertyOptional({ format: 'uuid', description: 'Requests made for this call' })
  @IsOptional()
  @IsUUID(undefined, { message: 'call_id must be a UUID' })
  call_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Requests made for this browser session' })
  @IsOptional()
  @IsUUID(undefined, { message: 'browser_session_id must be a UUID' })
  browser_session_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Requests made for this agent' })
  @IsOptional()
  @IsUUID(undefined, { message: 'agent_id must be a UUID' })
  agent_id?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Requests of this custom function' })
  @IsOptional()
  @Matches(RESOURCE_REF, { message: 'function_id must be a function id (letters, digits, _ . : -)' })
  function_id?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Requests of this lifecycle hook' })
  @IsOptional()
  @Matches(RESOURCE_REF, { message: 'hook_id must be a hook id (letters, digits, _ . : -)' })
  hook_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only requests started at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'created_after must be an ISO 8601 date-time' })
  created_after?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only requests started before this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'created_before must be an ISO 8601 date-time' })
  created_before?: string;
}

/** One request to the partner's systems, as listed (no headers or bodies: GET /integration-logs/{id}). */
export class IntegrationLogSummaryDto {
  @ApiProperty({ example: INTEGRATION_LOG_ID_EXAMPLE, description: '`ilog_` and a UUID' })
  id: string;

  @ApiProperty({ enum: INTEGRATION_REQUEST_KINDS, description: 'What the request was for' })
  kind: IntegrationRequestKind;

  @ApiProperty({ example: 'POST' })
  method: string;

  @ApiProperty({ description: 'The URL the request was sent to' })
  url: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'HTTP status of the answer; null when none came (timeout, refused address, failed connection)',
  })
  status: number | null;

  @ApiProperty({
    enum: INTEGRATION_OUTCOMES,
    description:
      'success: a 2xx answer; http_error: another status (or an answer too large to read); timeout: no ' +
      'complete answer in time; refused: the address was not allowed or the connection failed',
  })
  outcome: IntegrationOutcome;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the request failed, or why its answer was not used (say, an invalid decision answer)',
  })
  error: string | null;

  @ApiProperty({ description: 'From the first attempt leaving to the last answer, in milliseconds' })
  latency_ms: number;

  @ApiProperty({ description: 'Requests sent, retries included' })
  attempts: number;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  call_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  browser_session_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  agent_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The custom function, for its requests' })
  function_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The lifecycle hook, for its requests' })
  hook_id: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the first attempt left' })
  started_at: string;
}

/** GET /integration-logs/{id}: the entry with what was sent and what came back. */
export class IntegrationLogDto extends IntegrationLogSummaryDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'content-type': 'application/json', 'x-vap-signature': MASKED_HEADER_VALUE },
    description: `Request headers, lower-case names; signatures, credentials and your static headers read ${MASKED_HEADER_VALUE}`,
  })
  request_headers: Record<string, string>;

  @ApiProperty({
    type: String,
    nullable: true,
    description: `The request body's first ${INTEGRATION_LOG_EXCERPT_CHARS} characters; null when it had none`,
  })
  request_body: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      `The answer body's first ${INTEGRATION_LOG_EXCERPT_CHARS} characters; null when none came or it ` +
      'was not text (a PDF page)',
  })
  response_body: string | null;
}

export class IntegrationLogListDto {
  @ApiProperty({ type: [IntegrationLogSummaryDto] })
  integration_logs: IntegrationLogSummaryDto[];

  @NextCursor()
  next_cursor: string | null;
}
