import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, ValidateIf } from 'class-validator';
import { WEBHOOK_EVENT_TYPES } from '../events/event-catalog';
import { WebhookEndpointDto } from './webhook-endpoint.dto';
import { IfPresent } from '../validation';

/** GET /agent/{agent_id}/webhooks. */
export class AgentWebhooksDto {
  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ type: [WebhookEndpointDto], description: 'Only this agent’s own endpoints' })
  endpoints: WebhookEndpointDto[];

  @ApiProperty({
    description:
      'The agent’s webhooks_include_account_endpoints: whether account-wide endpoints also receive its events',
  })
  include_account_endpoints: boolean;

  @ApiProperty({ type: [String], example: WEBHOOK_EVENT_TYPES, description: 'The live event catalog' })
  available_events: string[];
}

/** What PATCH /agent/{agent_id}/webhooks answers: the agent’s webhooks and the flag as stored. */
export class AgentWebhooksUpdatedDto extends AgentWebhooksDto {
  @ApiProperty({ description: 'The stored flag, echoed under its agent field name' })
  webhooks_include_account_endpoints: boolean;
}

/**
 * Body of PATCH /agent/{agent_id}/webhooks: the fan-out flag, under either name. false needs at least one
 * enabled endpoint of the agent's own (else 409 NO_AGENT_ENDPOINT).
 */
export class UpdateAgentWebhooksDto {
  @ApiPropertyOptional({ description: 'Whether account-wide endpoints also receive this agent’s events' })
  @ValidateIf(
    (o: UpdateAgentWebhooksDto, v) => v !== undefined || o.webhooks_include_account_endpoints === undefined,
  )
  @IsBoolean({ message: 'include_account_endpoints must be a boolean' })
  include_account_endpoints?: boolean;

  @ApiPropertyOptional({ description: 'The same flag under the agent record’s name; send either' })
  @IfPresent()
  @IsBoolean({ message: 'webhooks_include_account_endpoints must be a boolean' })
  webhooks_include_account_endpoints?: boolean;
}

/** webhooks.agent_flag.set: from the agents service, which has checked the agent. */
export interface AgentFlagSetCommand {
  agentId: string;
  includeAccountEndpoints: boolean;
}

export interface AgentFlagSetResult {
  agentId: string;
  includeAccountEndpoints: boolean;
}

/** events.agent_webhooks.flag_changed: the flag as it now stands, after a set or an automatic flip-back. */
export interface AgentWebhookFlagChangedEvent {
  agent_id: string;
  include_account_endpoints: boolean;
  /** set: a partner set it; flipped_back: the agent lost its last enabled own endpoint. */
  reason: 'set' | 'flipped_back';
  changed_at: string;
}
