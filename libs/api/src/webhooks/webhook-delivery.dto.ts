import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { WEBHOOK_EVENT_TYPES } from '../events/event-catalog';
import { CursorQueryDto } from '../pagination';
import { OptionalOneOf } from '../validation';

/**
 * pending: waiting for its first attempt or a retry; delivering: an attempt is in flight; succeeded: a 2xx
 * arrived; failed: every attempt of the schedule failed, or the endpoint was disabled (replayable through
 * POST /webhook-deliveries/{id}/retry).
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'Also the X-Webhook-Id header, the same on every attempt' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  endpoint_id: string;

  @ApiProperty({ format: 'uuid', description: 'The event; one delivery per (event, endpoint)' })
  event_id: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES as string[] })
  event_type: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The agent the event is about' })
  agent_id: string | null;

  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES })
  status: WebhookDeliveryStatus;

  @ApiProperty({ description: 'Attempts made so far' })
  attempts: number;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due',
  })
  next_attempt_at: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'HTTP status of the last attempt, null when none came',
  })
  last_status_code: number | null;

  @ApiProperty({ type: String, nullable: true })
  last_error: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it succeeded or failed for good',
  })
  completed_at: string | null;
}

export class WebhookDeliveryAttemptDto {
  @ApiProperty({ description: '1 for the first attempt' })
  attempt: number;

  @ApiProperty({ format: 'date-time' })
  started_at: string;

  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status; null when no response came' })
  status_code: number | null;

  @ApiProperty({ description: 'Milliseconds until the response (or the failure)' })
  latency_ms: number;

  @ApiProperty({ enum: ['succeeded', 'failed'] })
  outcome: 'succeeded' | 'failed';

  @ApiProperty({ type: String, nullable: true, description: 'Response body, cut at 1024 characters' })
  response_body: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'What went wrong: timeout, connection refused, HTTP status',
  })
  error: string | null;
}

/** GET /webhook-deliveries/{id}: the delivery, the exact body sent, and every attempt. */
export class WebhookDeliveryDetailDto extends WebhookDeliveryDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The JSON body (event, timestamp, data)',
  })
  payload: Record<string, unknown>;

  @ApiProperty({ type: [WebhookDeliveryAttemptDto] })
  attempt_history: WebhookDeliveryAttemptDto[];
}

export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'Newest first' })
  deliveries: WebhookDeliveryDto[];

  @ApiProperty({ type: String, nullable: true })
  next_cursor: string | null;
}

/** Query of GET /config/webhooks/{id}/deliveries. */
export class ListWebhookDeliveriesQueryDto extends CursorQueryDto {
  @OptionalOneOf(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES as string[] })
  @IsOptional()
  @IsIn(WEBHOOK_EVENT_TYPES as string[], {
    message: `event_type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  })
  event_type?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Deliveries created at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Deliveries created before this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;
}
