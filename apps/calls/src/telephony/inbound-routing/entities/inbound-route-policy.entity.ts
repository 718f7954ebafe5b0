import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { InboundFailureAction, InboundRouteAction, InboundRouteScope } from '@vap/api';

@Entity({ name: 'inbound_route_policies' })
export class InboundRoutePolicy {
  /** `irp_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  scope: InboundRouteScope;

  @Column({ name: 'phone_number_id', type: 'text', nullable: true })
  phoneNumberId: string | null;

  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  @Column('text')
  name: string;

  @Column('boolean')
  enabled: boolean;

  @Column({ name: 'webhook_url', type: 'text' })
  webhookUrl: string;

  /** SecretBox output, bound to the policy id; null when the policy has no secret. */
  @Column({ name: 'webhook_secret_sealed', type: 'text', nullable: true })
  webhookSecretSealed: string | null;

  @Column({ name: 'timeout_ms', type: 'integer' })
  timeoutMs: number;

  @Column({ name: 'failure_action', type: 'text' })
  failureAction: InboundFailureAction;

  @Column({ name: 'allowed_actions', type: 'text', array: true })
  allowedActions: InboundRouteAction[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
