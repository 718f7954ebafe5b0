import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  BUILTIN_TOOL_NAMES,
  CUSTOM_FUNCTION_DEFAULT_DELAY_MS,
  CUSTOM_FUNCTION_DEFAULT_TIMEOUT_MS,
  CUSTOM_FUNCTION_MAX_TIMEOUT_MS,
  CustomFunctionOutcome,
} from '@vap/messages';
import { CursorQueryDto } from '../pagination';
import { IfPresent, Satisfies } from '../validation';
import { IsHttpsUrl } from '../webhooks/webhook-field.validators';
import {
  argumentsShapeProblem,
  CUSTOM_FUNCTION_METHODS,
  CustomFunctionLimits,
  CustomFunctionMethod,
  customFunctionNameProblem,
  headersProblem,
  parametersProblem,
  responseVariablesProblem,
} from './custom-function-rules';

const SPEECH_TEXT = {
  type: String,
  nullable: true,
  maxLength: CustomFunctionLimits.speechTextMax,
} as const;

/** What the agent says around the request; the object replaces the stored one whole (omitted: defaults). */
export class CustomFunctionSpeechInputDto {
  @ApiPropertyOptional({ ...SPEECH_TEXT, description: 'Said as the request leaves; null (default): nothing' })
  @IsOptional()
  @Length(1, CustomFunctionLimits.speechTextMax, {
    message: `speech.on_start must be 1 to ${CustomFunctionLimits.speechTextMax} characters or null`,
  })
  @IsString()
  on_start?: string | null;

  @ApiPropertyOptional({
    ...SPEECH_TEXT,
    description: 'Said once when the request has run delay_ms without an answer; null (default): nothing',
  })
  @IsOptional()
  @Length(1, CustomFunctionLimits.speechTextMax, {
    message: `speech.on_delay must be 1 to ${CustomFunctionLimits.speechTextMax} characters or null`,
  })
  @IsString()
  on_delay?: string | null;

  @ApiPropertyOptional({
    minimum: CustomFunctionLimits.delayMsMin,
    maximum: CustomFunctionLimits.delayMsMax,
    default: CUSTOM_FUNCTION_DEFAULT_DELAY_MS,
  })
  @IfPresent()
  @Min(CustomFunctionLimits.delayMsMin)
  @Max(CustomFunctionLimits.delayMsMax)
  @IsInt()
  delay_ms?: number;

  @ApiPropertyOptional({
    ...SPEECH_TEXT,
    description:
      'Said when the request fails (non-2xx, timeout, refused address); null (default): the model words it',
  })
  @IsOptional()
  @Length(1, CustomFunctionLimits.speechTextMax, {
    message: `speech.on_failure must be 1 to ${CustomFunctionLimits.speechTextMax} characters or null`,
  })
  @IsString()
  on_failure?: string | null;
}

export class CustomFunctionSpeechDto {
  @ApiProperty({ type: String, nullable: true })
  on_start: string | null;

  @ApiProperty({ type: String, nullable: true })
  on_delay: string | null;

  @ApiProperty()
  delay_ms: number;

  @ApiProperty({ type: String, nullable: true })
  on_failure: string | null;
}

export const CUSTOM_FUNCTION_AUTH_TYPES = ['customer_connection'] as const;

/**
 * How a function's request authenticates beyond its static headers: with the call's customer's connection to a
 * connector (its OAuth 2.0 access token as `Authorization: Bearer`, refreshed when it has run out or the server
 * answers 401; or the customer's API key where the connector puts it).
 */
export class CustomFunctionAuthDto {
  @ApiProperty({ enum: CUSTOM_FUNCTION_AUTH_TYPES })
  @IsDefined({ message: 'auth.type is required' })
  @IsIn(CUSTOM_FUNCTION_AUTH_TYPES as unknown as string[], {
    message: 'auth.type must be customer_connection',
  })
  type: 'customer_connection';

  @ApiProperty({
    example: 'ctr_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: 'One of the account’s connectors',
  })
  @IsDefined({ message: 'auth.connector_id is required' })
  @Matches(/^ctr_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: 'auth.connector_id must be a connector id (ctr_<uuid>)',
  })
  @IsString({ message: 'auth.connector_id must be a connector id' })
  connector_id: string;
}

const AUTH_DOC = {
  type: CustomFunctionAuthDto,
  nullable: true,
  description:
    'customer_connection: the request carries the call’s customer’s credential for the connector. A call ' +
    'without a customer, or whose customer has no live connection (never connected, disconnected, revoked, or a ' +
    'refresh the server refused), sends nothing: the outcome is not_connected, the model is told, and ' +
    'speech.on_failure is said. An unknown connector is 404 NOT_FOUND. null (default): none',
} as const;

const NAME_DOC = {
  minLength: 1,
  maxLength: CustomFunctionLimits.nameMax,
  pattern: '^[a-zA-Z_][a-zA-Z0-9_]{0,63}$',
  example: 'check_order_status',
  description:
    'The name the model calls the function by: unique on the account (409 CONFLICT), never a built-in tool’s ' +
    `name (${BUILTIN_TOOL_NAMES.join(', ')}; GET /agent-tools)`,
};
const DESCRIPTION_DOC = {
  minLength: 1,
  maxLength: CustomFunctionLimits.descriptionMax,
  example: 'Looks up an order by its number and tells its delivery status',
  description: 'Tells the model what the function does and when to call it',
};
const PARAMETERS_DOC = {
  type: 'object',
  additionalProperties: true,
  example: {
    type: 'object',
    properties: { order_id: { type: 'string', description: 'The order number' } },
    required: ['order_id'],
  },
  description:
    'JSON Schema (type "object") of the arguments, offered to the model and checked before any request leaves: ' +
    `at most ${CustomFunctionLimits.parametersMaxChars} characters and ${CustomFunctionLimits.parametersMaxDepth} ` +
    `levels, ${CustomFunctionLimits.schemaObjectsMax} objects with its $refs expanded; pattern and ` +
    'patternProperties are refused at any depth; $ref only as a local, non-recursive #/... pointer; format is a ' +
    'hint to the model, not checked',
} as const;
const HEADERS_DOC = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { Authorization: 'Bearer partner-token' },
  description:
    `Static request headers (at most ${CustomFunctionLimits.headersMax}; values of at most ` +
    `${CustomFunctionLimits.headerValueMax} characters), stored encrypted and always masked when read. Host, ` +
    'Content-Length, Content-Type, User-Agent, hop-by-hop, Proxy-* and X-Vap-* headers are set by the platform',
} as const;
const RESPONSE_VARIABLES_DOC = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { order_status: '$.order.status', first_item: '$.items[0].name' },
  description:
    'Call variables set from a JSON answer: variable name -> path ($, then .key, ["key"] or [index] parts; ' +
    `at most ${CustomFunctionLimits.responseVariablesMax})`,
} as const;

export class CreateCustomFunctionDto {
  @ApiProperty(NAME_DOC)
  @IsDefined({ message: 'name is required' })
  @Satisfies('customFunctionName', customFunctionNameProblem)
  @IsString()
  name: string;

  @ApiProperty(DESCRIPTION_DOC)
  @IsDefined({ message: 'description is required' })
  @Length(1, CustomFunctionLimits.descriptionMax, {
    message: `description must be 1 to ${CustomFunctionLimits.descriptionMax} characters`,
  })
  @IsString()
  description: string;

  @ApiPropertyOptional({ ...PARAMETERS_DOC, default: { type: 'object', properties: {} } })
  @IfPresent()
  @Satisfies('customFunctionParameters', parametersProblem)
  @IsObject({ message: 'parameters must be a JSON Schema object' })
  parameters?: Record<string, unknown>;

  @ApiProperty({
    example: 'https://api.example.com/orders/status',
    maxLength: 2048,
    description: 'HTTPS only',
  })
  @IsDefined({ message: 'url is required' })
  @IsHttpsUrl('url')
  url: string;

  @ApiPropertyOptional({ enum: CUSTOM_FUNCTION_METHODS, default: 'POST' })
  @IfPresent()
  @IsIn(CUSTOM_FUNCTION_METHODS as unknown as string[], {
    message: `method must be one of ${CUSTOM_FUNCTION_METHODS.join(', ')}`,
  })
  method?: CustomFunctionMethod;

  @ApiPropertyOptional({
    ...HEADERS_DOC,
    nullable: true,
    description: `${HEADERS_DOC.description}. Omitted or null: none`,
  })
  @IsOptional()
  @Satisfies('customFunctionHeaders', headersProblem)
  @IsObject({ message: 'headers must be an object of header names to string values' })
  headers?: Record<string, string> | null;

  @ApiPropertyOptional({
    minimum: CustomFunctionLimits.timeoutMsMin,
    maximum: CUSTOM_FUNCTION_MAX_TIMEOUT_MS,
    default: CUSTOM_FUNCTION_DEFAULT_TIMEOUT_MS,
    description: 'Time the whole request may take, a retry included',
  })
  @IfPresent()
  @Min(CustomFunctionLimits.timeoutMsMin)
  @Max(CUSTOM_FUNCTION_MAX_TIMEOUT_MS)
  @IsInt()
  timeout_ms?: number;

  @ApiPropertyOptional({ type: CustomFunctionSpeechInputDto, description: 'Omitted: all defaults' })
  @IfPresent()
  @ValidateNested()
  @Type(() => CustomFunctionSpeechInputDto)
  @IsObject({ message: 'speech must be an object' })
  speech?: CustomFunctionSpeechInputDto;

  @ApiPropertyOptional({
    ...RESPONSE_VARIABLES_DOC,
    nullable: true,
    description: `${RESPONSE_VARIABLES_DOC.description}. Omitted or null: none`,
  })
  @IsOptional()
  @Satisfies('customFunctionResponseVariables', responseVariablesProblem)
  @IsObject({ message: 'response_variables must be an object of variable names to JSON paths' })
  response_variables?: Record<string, string> | null;

  @ApiPropertyOptional({
    default: false,
    description: 'true: the conversation goes on while the request runs; the result joins it when it arrives',
  })
  @IfPresent()
  @IsBoolean()
  async?: boolean;

  @ApiPropertyOptional(AUTH_DOC)
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomFunctionAuthDto)
  @IsObject({ message: 'auth must be an object' })
  auth?: CustomFunctionAuthDto | null;
}

/** PATCH: omitted fields keep their values; headers, speech and response_variables replace the stored ones whole. */
export class UpdateCustomFunctionDto {
  @ApiPropertyOptional(NAME_DOC)
  @IfPresent()
  @Satisfies('customFunctionName', customFunctionNameProblem)
  @IsString()
  name?: string;

  @ApiPropertyOptional(DESCRIPTION_DOC)
  @IfPresent()
  @Length(1, CustomFunctionLimits.descriptionMax, {
    message: `description must be 1 to ${CustomFunctionLimits.descriptionMax} characters`,
  })
  @IsString()
  description?: string;

  @ApiPropertyOptional(PARAMETERS_DOC)
  @IfPresent()
  @Satisfies('customFunctionParameters', parametersProblem)
  @IsObject({ message: 'parameters must be a JSON Schema object' })
  parameters?: Record<string, unknown>;

  @ApiPropertyOptional({ example: 'https://api.example.com/orders/status', maxLength: 2048 })
  @IfPresent()
  @IsHttpsUrl('url')
  url?: string;

  @ApiPropertyOptional({ enum: CUSTOM_FUNCTION_METHODS })
  @IfPresent()
  @IsIn(CUSTOM_FUNCTION_METHODS as unknown as string[], {
    message: `method must be one of ${CUSTOM_FUNCTION_METHODS.join(', ')}`,
  })
  method?: CustomFunctionMethod;

  @ApiPropertyOptional({
    ...HEADERS_DOC,
    nullable: true,
    description: `${HEADERS_DOC.description}. null: none`,
  })
  @IsOptional()
  @Satisfies('customFunctionHeaders', headersProblem)
  @IsObject({ message: 'headers must be an object of header names to string values' })
  headers?: Record<string, string> | null;

  @ApiPropertyOptional({
    minimum: CustomFunctionLimits.timeoutMsMin,
    maximum: CUSTOM_FUNCTION_MAX_TIMEOUT_MS,
  })
  @IfPresent()
  @Min(CustomFunctionLimits.timeoutMsMin)
  @Max(CUSTOM_FUNCTION_MAX_TIMEOUT_MS)
  @IsInt()
  timeout_ms?: number;

  @ApiPropertyOptional({ type: CustomFunctionSpeechInputDto })
  @IfPresent()
  @ValidateNested()
  @Type(() => CustomFunctionSpeechInputDto)
  @IsObject({ message: 'speech must be an object' })
  speech?: CustomFunctionSpeechInputDto;

  @ApiPropertyOptional({
    ...RESPONSE_VARIABLES_DOC,
    nullable: true,
    description: `${RESPONSE_VARIABLES_DOC.description}. null: none`,
  })
  @IsOptional()
  @Satisfies('customFunctionResponseVariables', responseVariablesProblem)
  @IsObject({ message: 'response_variables must be an object of variable names to JSON paths' })
  response_variables?: Record<string, string> | null;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  async?: boolean;

  @ApiPropertyOptional(AUTH_DOC)
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomFunctionAuthDto)
  @IsObject({ message: 'auth must be an object' })
  auth?: CustomFunctionAuthDto | null;
}

export class ListCustomFunctionsQueryDto extends CursorQueryDto {}

export class TestCustomFunctionDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { order_id: 'A-1001' },
    description: 'Sample arguments, checked against parameters like the model’s. Omitted: {}',
  })
  @IfPresent()
  @Satisfies('customFunctionArguments', argumentsShapeProblem)
  @IsObject({ message: 'arguments must be a JSON object' })
  arguments?: Record<string, unknown>;

  @ApiPropertyOptional({
    example: 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11',
    description:
      'A customer of the account (else 404 NOT_FOUND) whose connection a function with auth ' +
      'customer_connection uses, as during that customer’s call; also sent as call.customer_id. Omitted: such ' +
      'a function answers not_connected',
  })
  @IsOptional()
  @IsString({ message: 'customer_id must be a customer id' })
  @Matches(/^cus_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: 'customer_id must be a customer id (cus_<uuid>)',
  })
  customer_id?: string;
}

export class AttachedAgentSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

/** A custom function as every response shows it: header values masked, the signing secret never. */
export class CustomFunctionDto {
  @ApiProperty({
    example: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: '`fn_` followed by a UUID',
  })
  id: string;

  @ApiProperty({ example: 'check_order_status' })
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  parameters: Record<string, unknown>;

  @ApiProperty()
  url: string;

  @ApiProperty({ enum: CUSTOM_FUNCTION_METHODS })
  method: CustomFunctionMethod;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { Authorization: '********' },
    description: 'Names as given; every value masked',
  })
  headers: Record<string, string>;

  @ApiProperty()
  timeout_ms: number;

  @ApiProperty({ type: CustomFunctionSpeechDto })
  speech: CustomFunctionSpeechDto;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  response_variables: Record<string, string>;

  @ApiProperty()
  async: boolean;

  @ApiProperty(AUTH_DOC)
  auth: CustomFunctionAuthDto | null;

  @ApiProperty({
    type: [AttachedAgentSummaryDto],
    description: 'Agents (not deleted) the function is attached to',
  })
  attached_agents: AttachedAgentSummaryDto[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

/** What creation and rotation return: the function with its signing secret, shown this once. */
export class CustomFunctionWithSecretDto extends CustomFunctionDto {
  @ApiProperty({
    example: 'fnsec_Hq1mJ3x2p4c9kq0b8WcVgG5n3m8s0y7tZk1QnH2rL4A',
    description:
      'Signing secret of the function’s requests, shown only now: X-Vap-Signature is v1=<hex HMAC-SHA256 of ' +
      '"<X-Vap-Timestamp>.<raw body>"> keyed with this whole string (UTF-8)',
  })
  signing_secret: string;
}

export class CustomFunctionListDto {
  @ApiProperty({ type: [CustomFunctionDto] })
  custom_functions: CustomFunctionDto[];

  @ApiProperty({ type: String, nullable: true })
  next_cursor: string | null;
}

export class CustomFunctionDeletedDto {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: 'Custom function deleted' })
  message: string;
}

const TEST_OUTCOMES: CustomFunctionOutcome[] = [
  'success',
  'invalid_arguments',
  'http_error',
  'timeout',
  'refused',
  'not_found',
  'not_connected',
];

/** What POST /custom-functions/{id}/test answers, whatever the partner's server did. */
export class CustomFunctionTestResultDto {
  @ApiProperty({
    enum: TEST_OUTCOMES.filter((o) => o !== 'not_found'),
    description:
      'success: a 2xx; http_error: another status; timeout: no answer within timeout_ms; refused: no ' +
      'connection was made (one error text whatever the reason: a private address, a name that does not resolve, ' +
      'a refused or timed-out connection) or it failed after; invalid_arguments: the arguments broke parameters ' +
      'and nothing was sent; not_connected: the function authenticates with a customer connection, which a test ' +
      '(no call, no customer) has not',
  })
  outcome: CustomFunctionOutcome;

  @ApiProperty({ type: Number, nullable: true, description: 'The partner’s HTTP status, when it answered' })
  status: number | null;

  @ApiProperty({
    description: 'Milliseconds from the first attempt leaving to the answer (0 when nothing was sent)',
  })
  latency_ms: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The start of the answer’s body (at most 4096 characters)',
  })
  response_excerpt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed, as the model would be told' })
  error: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'response_variables applied to a JSON answer (those that matched)',
  })
  variables: Record<string, unknown>;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The integration log entry of the request; null when nothing was sent',
  })
  log_id: string | null;
}
