import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '../events/event-catalog';

export const WEBHOOK_DELIVERY_OUTCOMES = ['succeeded', 'failed'] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

/** A webhook endpoint as every response shows it; the secret never appears here. */
export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'crm-sync' })
  label: string;

  @ApiProperty({ example: 'https://example.com/hooks/voice' })
  url: string;

  @ApiProperty({ description: 'Only enabled endpoints receive events' })
  enabled: boolean;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: account-wide' })
  agent_id: string | null;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES as string[], description: 'Empty = every type' })
  events: string[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last delivery attempt' })
  last_delivery_at: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: WEBHOOK_DELIVERY_OUTCOMES,
    description: 'Outcome of the last delivery attempt',
  })
  last_delivery_status: WebhookDeliveryOutcome | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Start of the current run of failed attempts with no success since; null when the last one succeeded',
  })
  failing_since: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the platform disabled the endpoint: auto_disabled when it kept failing for the whole auto-disable ' +
      'window (WEBHOOK_AUTO_DISABLE_AFTER, default 5 days, judged by time); null when enabled or disabled by you',
  })
  disabled_reason: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Until when the previous secret still signs deliveries (X-Webhook-Signature-Previous) after a rotation',
  })
  previous_secret_expires_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

/** What creation and rotation return: the endpoint with its signing secret, shown this once. */
export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({
    example: 'whsec_Hq1mJ3x2p4c9kq0b8WcVgG5n3m8s0y7tZk1QnH2rL4A',
    description: 'Signing secret, shown only now; the HMAC key is this whole string (UTF-8), prefix included',
  })
  secret: string;

  @ApiProperty({ example: 'Store this secret now: it is not shown again.' })
  message: string;
}

export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointDto], description: 'Every endpoint of the account, both scopes' })
  endpoints: WebhookEndpointDto[];
}

export class WebhookEndpointDeletedDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Webhook endpoint deleted' })
  message: string;
}

/** Response of the legacy PUT /config/webhook. */
export class LegacyWebhookResultDto {
  @ApiProperty({ example: 'https://example.com/hooks/voice' })
  webhook_url: string;

  @ApiProperty({ description: 'New signing secret of the `default` endpoint, shown only now' })
  webhook_secret: string;

  @ApiProperty({ example: 'Webhook saved. Store the secret now: it is not shown again.' })
  message: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Id of the `default` endpoint under /config/webhooks' })
  id?: string;
}
