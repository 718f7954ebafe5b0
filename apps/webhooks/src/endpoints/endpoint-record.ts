import { WebhookEndpointDto } from '@vap/api';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The partner-facing endpoint; the secrets stay behind. */
export function toEndpointDto(e: WebhookEndpoint, now = new Date()): WebhookEndpointDto {
  const graceLeft = e.previousSecretExpiresAt && e.previousSecretExpiresAt > now;
  return {
    id: e.id,
    label: e.label,
    url: e.url,
    enabled: e.enabled,
    agent_id: e.agentId,
    events: e.events,
    last_delivery_at: iso(e.lastDeliveryAt),
    last_delivery_status: e.lastDeliveryStatus,
    failing_since: iso(e.failingSince),
    disabled_reason: e.disabledReason,
    previous_secret_expires_at: graceLeft ? iso(e.previousSecretExpiresAt) : null,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}
