import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { InboundDecisionSource, InboundRouteAction, InboundRouteScope } from '@vap/api';

/** One resolved routing decision of an inbound call, with how it was reached. */
@Entity({ name: 'inbound_route_decisions' })
export class InboundRouteDecision {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'policy_id', type: 'text', nullable: true })
  policyId: string | null;

  @Column({ name: 'policy_scope', type: 'text', nullable: true })
  policyScope: InboundRouteScope | null;

  @Column({ name: 'phone_number_id', type: 'text', nullable: true })
  phoneNumberId: string | null;

  @Column('text')
  provider: string;

  @Column({ name: 'provider_call_id', type: 'text' })
  providerCallId: string;

  @Column({ name: 'from_number', type: 'text' })
  fromNumber: string;

  @Column({ name: 'to_number', type: 'text' })
  toNumber: string;

  @Column('text')
  action: InboundRouteAction;

  @Column('text')
  source: InboundDecisionSource;

  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  @Column({ name: 'transfer_to_number', type: 'text', nullable: true })
  transferToNumber: string | null;

  @Column({ name: 'webhook_status', type: 'integer', nullable: true })
  webhookStatus: number | null;

  @Column({ name: 'webhook_latency_ms', type: 'integer', nullable: true })
  webhookLatencyMs: number | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason: string | null;

  @Column({ name: 'call_id', type: 'uuid', nullable: true })
  callId: string | null;

  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
