import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An extraction set attached to an agent. */
@Entity({ name: 'agent_extraction_sets' })
export class AgentExtractionSet {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @PrimaryColumn({ name: 'set_id', type: 'text' })
  setId: string;

  @Column({ name: 'attached_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  attachedAt: Date;
}
