import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsInt, IsUUID, Max, Min, ValidateIf } from 'class-validator';
import { IfPresent } from '../validation';
import { IsHttpsUrl } from '../webhooks/webhook-field.validators';

export const LIFECYCLE_HOOK_EVENTS = ['pre_call', 'post_call'] as const;
export type LifecycleHookEvent = (typeof LIFECYCLE_HOOK_EVENTS)[number];

/** What a pre-call hook's failure (timeout, non-2xx, refused address, invalid answer) does to the call. */
export const PRE_CALL_FAILURE_ACTIONS = ['continue', 'block'] as const;
export type PreCallFailureAction = (typeof PRE_CALL_FAILURE_ACTIONS)[number];

/**
 * A pre-call hook holds the call before it is dialled or answered, and POST /calls/start waits for it within
 * the gateway's command deadline (RPC_TIMEOUT_MS, 5 s by default) with the dial after it, so its wait is
 * short; a post-call hook runs after the call, off any call's path, and may take longer.
 */
export const LIFECYCLE_HOOK_TIMEOUT_MS = {
  pre_call: { min: 500, max: 3000, default: 2000 },
  post_call: { min: 500, max: 30000, default: 10000 },
} as const;

/** Bounds of a hook's answer (its body, which bounds a pre-call answer's variables) and of what is kept. */
export const LIFECYCLE_HOOK_LIMITS = {
  answerMaxBytes: 64 * 1024,
  reasonMaxChars: 500,
  /** The excerpt of a post-call hook's answer kept on the session. */
  storedResponseMaxChars: 4096,
  /** Requests a post-call hook gets at most (the first and its retries). */
  postCallMaxAttempts: 5,
} as const;

export const LIFECYCLE_HOOK_ID_EXAMPLE = 'hook_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11';

export class CreateLifecycleHookDto {
  @ApiProperty({ enum: LIFECYCLE_HOOK_EVENTS, description: 'When the hook runs' })
  @IsDefined({ message: 'event is required' })
  @IsIn(LIFECYCLE_HOOK_EVENTS as unknown as string[], {
    message: `event must be one of ${LIFECYCLE_HOOK_EVENTS.join(', ')}`,
  })
  event: LifecycleHookEvent;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      "The agent whose calls run the hook; omitted or null: the account default (an agent's own hook wins)",
  })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsUUID('all', { message: 'agent_id must be a UUID or null' })
  agent_id?: string | null;

  @ApiProperty({ example: 'https://partner.example/hooks/pre-call', maxLength: 2048 })
  @IsDefined({ message: 'url is required' })
  @IsHttpsUrl('url')
  url: string;

  @ApiPropertyOptional({
    minimum: LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.min,
    maximum: LIFECYCLE_HOOK_TIMEOUT_MS.post_call.max,
    description: `Per request. pre_call: ${LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.min}-${LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.max}, default ${LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.default}; post_call: ${LIFECYCLE_HOOK_TIMEOUT_MS.post_call.min}-${LIFECYCLE_HOOK_TIMEOUT_MS.post_call.max}, default ${LIFECYCLE_HOOK_TIMEOUT_MS.post_call.default}`,
  })
  @IfPresent()
  @IsInt({ message: 'timeout_ms must be an integer' })
  @Min(LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.min, {
    message: `timeout_ms must be at least ${LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.min}`,
  })
  @Max(LIFECYCLE_HOOK_TIMEOUT_MS.post_call.max, {
    message: `timeout_ms must be at most ${LIFECYCLE_HOOK_TIMEOUT_MS.post_call.max}`,
  })
  timeout_ms?: number;

  @ApiPropertyOptional({
    enum: PRE_CALL_FAILURE_ACTIONS,
    default: 'continue',
    description: 'pre_call only: what a timeout, non-2xx, refused address or invalid answer does to the call',
  })
  @IfPresent()
  @IsIn(PRE_CALL_FAILURE_ACTIONS as unknown as string[], {
    message: `failure_action must be one of ${PRE_CALL_FAILURE_ACTIONS.join(', ')}`,
  })
  failure_action?: PreCallFailureAction;

  @ApiPropertyOptional({ default: true })
  @IfPresent()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;
}

/** Event and agent are fixed at creation; the secret changes only by rotation. */
export class UpdateLifecycleHookDto {
  @ApiPropertyOptional({ example: 'https://partner.example/hooks/pre-call', maxLength: 2048 })
  @IfPresent()
  @IsHttpsUrl('url')
  url?: string;

  @ApiPropertyOptional({
    minimum: LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.min,
    maximum: LIFECYCLE_HOOK_TIMEOUT_MS.post_call.max,
    description: 'Per request, within the bounds of the hook’s event',
  })
  @IfPresent()
  @IsInt({ message: 'timeout_ms must be an integer' })
  @Min(LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.min, {
    message: `timeout_ms must be at least ${LIFECYCLE_HOOK_TIMEOUT_MS.pre_call.min}`,
  })
  @Max(LIFECYCLE_HOOK_TIMEOUT_MS.post_call.max, {
    message: `timeout_ms must be at most ${LIFECYCLE_HOOK_TIMEOUT_MS.post_call.max}`,
  })
  timeout_ms?: number;

  @ApiPropertyOptional({ enum: PRE_CALL_FAILURE_ACTIONS, description: 'pre_call only' })
  @IfPresent()
  @IsIn(PRE_CALL_FAILURE_ACTIONS as unknown as string[], {
    message: `failure_action must be one of ${PRE_CALL_FAILURE_ACTIONS.join(', ')}`,
  })
  failure_action?: PreCallFailureAction;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;
}

/** A lifecycle hook as every response shows it; its signing secret never appears here. */
export class LifecycleHookDto {
  @ApiProperty({ example: LIFECYCLE_HOOK_ID_EXAMPLE })
  id: string;

  @ApiProperty({ enum: LIFECYCLE_HOOK_EVENTS })
  event: LifecycleHookEvent;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: the account default' })
  agent_id: string | null;

  @ApiProperty({ example: 'https://partner.example/hooks/pre-call' })
  url: string;

  @ApiProperty()
  timeout_ms: number;

  @ApiProperty({
    enum: PRE_CALL_FAILURE_ACTIONS,
    nullable: true,
    description: 'pre_call: what a failure does to the call; null for post_call',
  })
  failure_action: PreCallFailureAction | null;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time' })
  updated_at: string;
}

/** What creation and rotation return: the hook with its signing secret, shown this once. */
export class LifecycleHookWithSecretDto extends LifecycleHookDto {
  @ApiProperty({
    example: 'hksec_2mX0c1Jx0bq3y0m1Z0hXo4b5R8sQ9tU7vW6xY5zA3bC',
    description: 'Signing secret, shown only now; the HMAC key is this whole string (UTF-8), prefix included',
  })
  secret: string;
}

export class LifecycleHookListDto {
  @ApiProperty({ type: [LifecycleHookDto] })
  hooks: LifecycleHookDto[];
}

export class LifecycleHookDeletedDto {
  @ApiProperty({ example: LIFECYCLE_HOOK_ID_EXAMPLE })
  id: string;

  @ApiProperty({ example: true })
  deleted: boolean;
}

export const POST_CALL_HOOK_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type PostCallHookStatus = (typeof POST_CALL_HOOK_STATUSES)[number];

/** The post-call hook's run for one session, as GET /calls/{id} shows it. */
export class PostCallHookResultDto {
  @ApiProperty({ example: LIFECYCLE_HOOK_ID_EXAMPLE })
  hook_id: string;

  @ApiProperty({
    enum: POST_CALL_HOOK_STATUSES,
    description:
      'pending while requests are still to be sent (retries included); delivered on a 2xx; failed after the last attempt',
  })
  status: PostCallHookStatus;

  @ApiProperty({
    enum: ['success', 'http_error', 'timeout', 'refused'],
    nullable: true,
    description: 'How the last request ended; null before the first',
  })
  outcome: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the last answer' })
  http_status: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: LIFECYCLE_HOOK_LIMITS.storedResponseMaxChars,
    description:
      'The 2xx answer’s body as text (JSON stays JSON text), its first 4096 characters; null without a 2xx or with an empty body',
  })
  response: string | null;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  completed_at: string | null;
}
