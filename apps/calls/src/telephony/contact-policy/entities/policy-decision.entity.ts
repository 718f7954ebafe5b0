import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { PolicyDialSource, PolicyOutcome, PolicyRule } from '@vap/api';

/** A dial the contact policy stopped, and the rule that stopped it. */
@Entity({ name: 'policy_decisions' })
export class PolicyDecision {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  number: string;

  @Column('text')
  rule: PolicyRule;

  @Column('text')
  outcome: PolicyOutcome;

  @Column('text')
  source: PolicyDialSource;

  @Column({ name: 'campaign_id', type: 'text', nullable: true })
  campaignId: string | null;

  @Column({ name: 'contact_id', type: 'text', nullable: true })
  contactId: string | null;

  @Column({ name: 'do_not_call_id', type: 'text', nullable: true })
  doNotCallId: string | null;

  @Column({ name: 'retry_at', type: 'timestamptz', precision: 3, nullable: true })
  retryAt: Date | null;

  @Column('text')
  detail: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
