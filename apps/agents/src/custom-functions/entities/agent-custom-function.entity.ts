import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A custom function attached to an agent. */
@Entity({ name: 'agent_custom_functions' })
export class AgentCustomFunction {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @PrimaryColumn({ name: 'function_id', type: 'text' })
  functionId: string;

  @Column({ name: 'attached_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  attachedAt: Date;
}
