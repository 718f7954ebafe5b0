import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { CursorQueryDto } from '../pagination';
import { PhoneNumberId } from '@vap/messages';
import { E164_PATTERN, IfPresent, OptionalOneOf } from '../validation';
import { PHONE_NUMBER_ID_EXAMPLE } from './phone-number.dto';

export const INBOUND_ROUTE_SCOPES = ['PHONE_NUMBER', 'AGENT', 'PARTNER'] as const;
export type InboundRouteScope = (typeof INBOUND_ROUTE_SCOPES)[number];

export const INBOUND_ROUTE_ACTIONS = ['ANSWER_WITH_AI', 'SELECT_AGENT', 'TRANSFER', 'REJECT'] as const;
export type InboundRouteAction = (typeof INBOUND_ROUTE_ACTIONS)[number];

/** What may stand in for a failed decision: an action that needs no data from the partner. */
export const INBOUND_FAILURE_ACTIONS = ['ANSWER_WITH_AI', 'REJECT'] as const;
export type InboundFailureAction = (typeof INBOUND_FAILURE_ACTIONS)[number];

/** How a decision came about. */
export const INBOUND_DECISION_SOURCES = ['webhook', 'failure_action', 'no_policy'] as const;
export type InboundDecisionSource = (typeof INBOUND_DECISION_SOURCES)[number];

export const INBOUND_TIMEOUT_MS = { min: 500, max: 10000, default: 3000 } as const;
/** The version field of the inbound.route body (date-shaped, per the contract). */
export const INBOUND_ROUTE_VERSION = '2025-01-01';

const httpsUrl = { protocols: ['https'], require_protocol: true, require_tld: false, require_host: true };

/** Omitted means the default (or, on update, unchanged); null is refused, as none of these can be empty. */
class InboundPolicyFieldsDto {
  @ApiPropertyOptional({ maxLength: 100, example: 'Business hours router' })
  @IfPresent()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  name?: string;

  @ApiPropertyOptional({ default: true })
  @IfPresent()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;

  @ApiPropertyOptional({
    minimum: INBOUND_TIMEOUT_MS.min,
    maximum: INBOUND_TIMEOUT_MS.max,
    default: INBOUND_TIMEOUT_MS.default,
  })
  @IfPresent()
  @IsInt({ message: 'timeout_ms must be an integer' })
  @Min(INBOUND_TIMEOUT_MS.min, { message: `timeout_ms must be at least ${INBOUND_TIMEOUT_MS.min}` })
  @Max(INBOUND_TIMEOUT_MS.max, { message: `timeout_ms must be at most ${INBOUND_TIMEOUT_MS.max}` })
  timeout_ms?: number;

  @ApiPropertyOptional({
    enum: INBOUND_FAILURE_ACTIONS,
    default: 'ANSWER_WITH_AI',
    description: 'Applied when the decision URL fails, times out or answers something invalid',
  })
  @IfPresent()
  @IsIn(INBOUND_FAILURE_ACTIONS as unknown as string[], {
    message: `failure_action must be one of ${INBOUND_FAILURE_ACTIONS.join(', ')}`,
  })
  failure_action?: InboundFailureAction;

  @ApiPropertyOptional({
    enum: INBOUND_ROUTE_ACTIONS,
    isArray: true,
    description: 'Actions the partner may answer with (default: all)',
  })
  @IfPresent()
  @IsArray({ message: 'allowed_actions must be an array' })
  @ArrayMinSize(1, { message: 'allowed_actions must not be empty' })
  @ArrayUnique({ message: 'allowed_actions must not repeat an action' })
  @IsIn(INBOUND_ROUTE_ACTIONS as unknown as string[], {
    each: true,
    message: `allowed_actions may hold ${INBOUND_ROUTE_ACTIONS.join(', ')}`,
  })
  allowed_actions?: InboundRouteAction[];
}

export class CreateInboundRoutePolicyDto extends InboundPolicyFieldsDto {
  @ApiProperty({
    enum: INBOUND_ROUTE_SCOPES,
    description: 'PHONE_NUMBER needs phone_number_id, AGENT needs agent_id, PARTNER needs neither',
  })
  @IsIn(INBOUND_ROUTE_SCOPES as unknown as string[], {
    message: `scope must be one of ${INBOUND_ROUTE_SCOPES.join(', ')}`,
  })
  scope: InboundRouteScope;

  @ApiPropertyOptional({
    example: PHONE_NUMBER_ID_EXAMPLE,
    description: 'Required for scope PHONE_NUMBER; not accepted otherwise',
  })
  @ValidateIf(
    (o: CreateInboundRoutePolicyDto) => o.scope === 'PHONE_NUMBER' || o.phone_number_id !== undefined,
  )
  @IsDefined({ message: 'phone_number_id is required for scope PHONE_NUMBER' })
  @IsString()
  @Matches(PhoneNumberId.pattern, { message: 'phone_number_id must be a phone number id (pn_...)' })
  phone_number_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required for scope AGENT; not accepted otherwise' })
  @ValidateIf((o: CreateInboundRoutePolicyDto) => o.scope === 'AGENT' || o.agent_id !== undefined)
  @IsUUID('all', { message: 'agent_id must be a UUID (required for scope AGENT)' })
  agent_id?: string;

  @ApiProperty({ example: 'https://partner.example/route', description: 'HTTPS decision URL' })
  @IsDefined({ message: 'webhook_url is required' })
  @IsString()
  @IsUrl(httpsUrl, { message: 'webhook_url must be an HTTPS URL' })
  @MaxLength(2000)
  webhook_url: string;

  @ApiPropertyOptional({
    minLength: 16,
    maxLength: 200,
    writeOnly: true,
    description: 'Signing secret of inbound.route requests; write-only (responses show has_webhook_secret)',
  })
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'webhook_secret must be at least 16 characters' })
  @MaxLength(200, { message: 'webhook_secret must be at most 200 characters' })
  webhook_secret?: string;
}

/** Scope and target are fixed at creation; everything else can change. `webhook_secret: null` removes it. */
export class UpdateInboundRoutePolicyDto extends InboundPolicyFieldsDto {
  @ApiPropertyOptional({ example: 'https://partner.example/route', description: 'HTTPS decision URL' })
  @IfPresent()
  @IsString()
  @IsUrl(httpsUrl, { message: 'webhook_url must be an HTTPS URL' })
  @MaxLength(2000)
  webhook_url?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 16,
    maxLength: 200,
    writeOnly: true,
    description: 'New secret, or null to remove it',
  })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsString()
  @MinLength(16, { message: 'webhook_secret must be at least 16 characters' })
  @MaxLength(200, { message: 'webhook_secret must be at most 200 characters' })
  webhook_secret?: string | null;
}

export class InboundPhoneNumberRefDto {
  @ApiProperty({ example: PHONE_NUMBER_ID_EXAMPLE })
  id: string;

  @ApiProperty({ example: '+919876543210' })
  number: string;
}

export class InboundAgentRefDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
}

export class InboundRoutePolicyDto {
  @ApiProperty({ example: 'irp_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11' })
  id: string;

  @ApiProperty({ enum: INBOUND_ROUTE_SCOPES })
  scope: InboundRouteScope;

  @ApiProperty({ type: String, nullable: true })
  phone_number_id: string | null;

  @ApiProperty({ type: InboundPhoneNumberRefDto, nullable: true })
  phone_number: InboundPhoneNumberRefDto | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  agent_id: string | null;

  @ApiProperty({ type: InboundAgentRefDto, nullable: true })
  agent: InboundAgentRefDto | null;

  @ApiProperty()
  name: string;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty()
  webhook_url: string;

  @ApiProperty({ description: 'Whether a signing secret is set; the secret itself is never returned' })
  has_webhook_secret: boolean;

  @ApiProperty()
  timeout_ms: number;

  @ApiProperty({ enum: INBOUND_FAILURE_ACTIONS })
  failure_action: InboundFailureAction;

  @ApiProperty({ enum: INBOUND_ROUTE_ACTIONS, isArray: true })
  allowed_actions: InboundRouteAction[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class InboundRoutePolicyListDto {
  @ApiProperty({ type: [InboundRoutePolicyDto] })
  policies: InboundRoutePolicyDto[];
}

export class InboundRoutePolicyDeletedDto {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: true })
  deleted: true;
}

export class ListInboundRouteDecisionsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ example: PHONE_NUMBER_ID_EXAMPLE })
  @IsOptional()
  @Matches(PhoneNumberId.pattern, { message: 'phone_number_id must be a phone number id (pn_...)' })
  phone_number_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  policy_id?: string;

  @OptionalOneOf(INBOUND_ROUTE_ACTIONS)
  action?: InboundRouteAction;

  @OptionalOneOf(INBOUND_DECISION_SOURCES)
  source?: InboundDecisionSource;

  @ApiPropertyOptional({ format: 'date-time', description: 'Decisions at or after this time' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}T/, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Decisions before this time' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}T/, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

export class InboundRouteDecisionDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The policy that was resolved; null when none applied',
  })
  policy_id: string | null;

  @ApiProperty({ type: String, enum: INBOUND_ROUTE_SCOPES, nullable: true })
  policy_scope: InboundRouteScope | null;

  @ApiProperty({ type: String, nullable: true })
  phone_number_id: string | null;

  @ApiProperty()
  provider: string;

  @ApiProperty({ description: 'The carrier’s id of the inbound call' })
  provider_call_id: string;

  @ApiProperty()
  from_number: string;

  @ApiProperty()
  to_number: string;

  @ApiProperty({ enum: INBOUND_ROUTE_ACTIONS })
  action: InboundRouteAction;

  @ApiProperty({
    enum: INBOUND_DECISION_SOURCES,
    description:
      'webhook: the partner decided; failure_action: the policy’s fallback applied; no_policy: no enabled policy matched',
  })
  source: InboundDecisionSource;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Agent that answers (ANSWER_WITH_AI, SELECT_AGENT)',
  })
  agent_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'TRANSFER target' })
  transfer_to_number: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'HTTP status of the decision URL; null when it was not reached',
  })
  webhook_status: number | null;

  @ApiProperty({ type: Number, nullable: true })
  webhook_latency_ms: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the failure_action applied' })
  failure_reason: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Phone call created for the answered call',
  })
  call_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  session_id: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class InboundRouteDecisionListDto {
  @ApiProperty({ type: [InboundRouteDecisionDto] })
  decisions: InboundRouteDecisionDto[];

  @ApiProperty({ type: String, nullable: true })
  next_cursor: string | null;
}

/** POST /sandbox/inbound-calls: simulate an inbound call to one of the account's numbers. */
export class SandboxInboundCallDto {
  @ApiProperty({ example: '+919876543210', description: 'A number of the account (see GET /phone-numbers)' })
  @IsDefined({ message: 'to_number is required' })
  @IsString()
  @Matches(E164_PATTERN, { message: 'to_number must be an E.164 number such as +919876543210' })
  to_number: string;

  @ApiProperty({ example: '+918012345678', description: 'The simulated caller' })
  @IsDefined({ message: 'from_number is required' })
  @IsString()
  @Matches(E164_PATTERN, { message: 'from_number must be an E.164 number such as +918012345678' })
  from_number: string;
}
