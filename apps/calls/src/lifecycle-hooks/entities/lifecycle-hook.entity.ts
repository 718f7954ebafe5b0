import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { LifecycleHookEvent, PreCallFailureAction } from '@vap/api';

@Entity({ name: 'lifecycle_hooks' })
export class LifecycleHook {
  /** `hook_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  event: LifecycleHookEvent;

  /** null: the account default, run for calls of agents without a hook of their own. */
  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  @Column('text')
  url: string;

  /** SecretBox output, bound to the hook id (hookSecretContext). */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @Column({ name: 'timeout_ms', type: 'integer' })
  timeoutMs: number;

  /** pre_call only; null for post_call. */
  @Column({ name: 'failure_action', type: 'text', nullable: true })
  failureAction: PreCallFailureAction | null;

  @Column('boolean')
  enabled: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}

/** The SecretBox context of a hook's signing secret: a sealed value opens only for the hook it was made for. */
export function hookSecretContext(hookId: string): string {
  return `lifecycle-hook:${hookId}`;
}
