import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { LedgerEntryType } from '@vap/api';
import type { CallModelUsage } from '@vap/messages';
import { bigintToNumber } from './partner.entity';

/** Every change of a partner's balance, written in the same transaction as the change. */
@Entity({ name: 'ledger_entries' })
export class LedgerEntry {
  @PrimaryColumn('uuid')
  id: string;

  /** The entries' order, drawn under the partner's row lock: each balance_after follows the one before. */
  @Column({ type: 'bigint', insert: false, update: false, transformer: bigintToNumber })
  seq: number;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  type: LedgerEntryType;

  @Column({ name: 'amount_paise', type: 'bigint', transformer: bigintToNumber })
  amountPaise: number;

  @Column({ name: 'balance_after_paise', type: 'bigint', transformer: bigintToNumber })
  balanceAfterPaise: number;

  @Column('text')
  reason: string;

  @Column({ type: 'text', nullable: true })
  reference: string | null;

  /** A charge's phone call or browser session (a browser session's id is its call id). */
  @Column({ name: 'call_id', type: 'uuid', nullable: true })
  callId: string | null;

  @Column({ name: 'browser_session_id', type: 'uuid', nullable: true })
  browserSessionId: string | null;

  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  @Column({ name: 'campaign_id', type: 'text', nullable: true })
  campaignId: string | null;

  @Column({ name: 'project_id', type: 'uuid', nullable: true })
  projectId: string | null;

  @Column({ name: 'billed_seconds', type: 'integer', nullable: true })
  billedSeconds: number | null;

  /**
   * A charge's cloud speech providers paid by the platform, sorted ([]: none). Null on other entries and on
   * charges written before it was kept.
   */
  @Column({ name: 'platform_speech_providers', type: 'text', array: true, nullable: true })
  platformSpeechProviders: string[] | null;

  /**
   * A charge's model use, per model that wrote the call's lines ([]: none). Null on other entries and on charges
   * written before it was kept.
   */
  @Column({ name: 'model_usage', type: 'jsonb', nullable: true })
  modelUsage: CallModelUsage[] | null;

  /** On a reseller's `transfer` and `resale` entries: the client account the entry concerns. */
  @Column({ name: 'client_id', type: 'uuid', nullable: true })
  clientId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
