import { WebhookDeliveryAttemptDto, WebhookDeliveryDto, WebhookDeliveryStatus } from '@vap/api';

/** A row of webhooks.deliveries as raw queries return it. */
export interface DeliveryRow {
  id: string;
  partner_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  agent_id: string | null;
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export interface AttemptRow {
  attempt: number;
  started_at: Date;
  latency_ms: number;
  status_code: number | null;
  outcome: 'succeeded' | 'failed';
  response_body: string | null;
  error: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toDeliveryDto(r: DeliveryRow): WebhookDeliveryDto {
  return {
    id: r.id,
    endpoint_id: r.endpoint_id,
    event_id: r.event_id,
    event_type: r.event_type,
    agent_id: r.agent_id,
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    completed_at: iso(r.completed_at),
  };
}

export function toAttemptDto(a: AttemptRow): WebhookDeliveryAttemptDto {
  return {
    attempt: a.attempt,
    started_at: a.started_at.toISOString(),
    status_code: a.status_code,
    latency_ms: a.latency_ms,
    outcome: a.outcome,
    response_body: a.response_body,
    error: a.error,
  };
}
