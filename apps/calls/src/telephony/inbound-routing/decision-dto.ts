import { InboundRouteDecisionDto } from '@vap/api';
import { InboundRouteDecision } from './entities/inbound-route-decision.entity';

export function toDecisionDto(d: InboundRouteDecision): InboundRouteDecisionDto {
  return {
    id: d.id,
    policy_id: d.policyId,
    policy_scope: d.policyScope,
    phone_number_id: d.phoneNumberId,
    provider: d.provider,
    provider_call_id: d.providerCallId,
    from_number: d.fromNumber,
    to_number: d.toNumber,
    action: d.action,
    source: d.source,
    agent_id: d.agentId,
    transfer_to_number: d.transferToNumber,
    webhook_status: d.webhookStatus,
    webhook_latency_ms: d.webhookLatencyMs,
    failure_reason: d.failureReason,
    call_id: d.callId,
    session_id: d.sessionId,
    created_at: d.createdAt.toISOString(),
  };
}
