import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The agent fan-out flag; an agent without a row has the default, true. */
@Entity({ name: 'agent_settings' })
export class AgentSetting {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'include_account_endpoints', type: 'boolean' })
  includeAccountEndpoints: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
