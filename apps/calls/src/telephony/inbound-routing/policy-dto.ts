import { InboundRoutePolicyDto } from '@vap/api';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';
import { InboundRoutePolicy } from './entities/inbound-route-policy.entity';

export function toPolicyDto(p: InboundRoutePolicy, number: PhoneNumber | null): InboundRoutePolicyDto {
  return {
    id: p.id,
    scope: p.scope,
    phone_number_id: p.phoneNumberId,
    phone_number: number ? { id: number.id, number: number.number } : null,
    agent_id: p.agentId,
    agent: p.agentId ? { id: p.agentId } : null,
    name: p.name,
    enabled: p.enabled,
    webhook_url: p.webhookUrl,
    has_webhook_secret: p.webhookSecretSealed !== null,
    timeout_ms: p.timeoutMs,
    failure_action: p.failureAction,
    allowed_actions: p.allowedActions,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** The policy secret is sealed bound to its policy id. */
export const policySecretContext = (policyId: string) => `inbound_route_policy:${policyId}:webhook_secret`;
