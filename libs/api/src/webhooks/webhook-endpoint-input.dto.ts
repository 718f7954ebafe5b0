import { ApiHideProperty, ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Allow, IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { WEBHOOK_EVENT_TYPES } from '../events/event-catalog';
import { IsAbsent, IsHttpsUrl, IsWebhookEventList, IsWebhookLabel } from './webhook-field.validators';
import { IfPresent } from '../validation';

const LABEL_DOC = {
  minLength: 1,
  maxLength: 31,
  pattern: '^[a-z0-9][a-z0-9-]{0,30}$',
  example: 'crm-sync',
  description:
    'Lowercase letters, digits and hyphens, starting with a letter or digit; unique on the account across ' +
    'account-wide and agent endpoints (409 LABEL_TAKEN); `default` is reserved for PUT /config/webhook.',
};
const URL_DOC = { format: 'uri', example: 'https://example.com/hooks/voice', description: 'HTTPS only' };
const EVENTS_DOC: ApiPropertyOptions = {
  type: [String],
  isArray: true,
  enum: WEBHOOK_EVENT_TYPES as string[],
  enumName: 'WebhookEventType',
  description:
    'Allowlist of event types; omitted or empty = every type, including types added later. An unknown name ' +
    '(or the removed session.failed) is a 400 VALIDATION_ERROR whose message lists the valid set.',
};

/** Body of POST /agent/{agent_id}/webhooks: the endpoint is bound to the agent in the path. */
export class CreateAgentWebhookEndpointDto {
  @ApiProperty(LABEL_DOC)
  @IsWebhookLabel()
  label: string;

  @ApiProperty(URL_DOC)
  @IsHttpsUrl('url')
  url: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @IsOptional()
  @IsWebhookEventList()
  events?: string[];

  @ApiPropertyOptional({ default: true, description: 'Only enabled endpoints receive events' })
  @IsOptional()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'Ignored on this route: the agent is the one in the path',
  })
  @Allow()
  agent_id?: unknown;
}

/** Body of POST /config/webhooks. */
export class CreateWebhookEndpointDto {
  @ApiProperty(LABEL_DOC)
  @IsWebhookLabel()
  label: string;

  @ApiProperty(URL_DOC)
  @IsHttpsUrl('url')
  url: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'Binds the endpoint to one of the account’s agents (404 NOT_FOUND when it is not, or is deleted): it then ' +
      'receives only that agent’s events. Omitted: account-wide. Immutable after creation.',
  })
  @IsOptional()
  @IsUUID('all', { message: 'agent_id must be a UUID' })
  agent_id?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @IsOptional()
  @IsWebhookEventList()
  events?: string[];

  @ApiPropertyOptional({ default: true, description: 'Only enabled endpoints receive events' })
  @IsOptional()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;
}

/** Body of PATCH /config/webhooks/{id}: any subset; agent_id may not be sent at all. */
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional(LABEL_DOC)
  @IfPresent()
  @IsWebhookLabel()
  label?: string;

  @ApiPropertyOptional(URL_DOC)
  @IfPresent()
  @IsHttpsUrl('url')
  url?: string;

  @ApiPropertyOptional({
    description:
      'false stops new deliveries; disabling an agent’s last enabled endpoint flips its ' +
      'webhooks_include_account_endpoints back to true. true also clears an automatic disable.',
  })
  @IfPresent()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;

  @ApiPropertyOptional(EVENTS_DOC)
  @IfPresent()
  @IsWebhookEventList()
  events?: string[];

  // Not part of the documented body: an endpoint's scope is fixed at creation, so sending it is a 400.
  @ApiHideProperty()
  @IsAbsent('agent_id is immutable after creation and cannot be sent in an update')
  agent_id?: unknown;
}

/** Body of the legacy PUT /config/webhook. */
export class LegacyWebhookDto {
  @ApiProperty(URL_DOC)
  @IsHttpsUrl('webhook_url')
  webhook_url: string;
}
