import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from './partner.entity';

/** Every change of a partner's balance, written in the same transaction as the change. */
@Entity({ name: 'ledger_entries' })
export class LedgerEntry {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'amount_paise', type: 'bigint', transformer: bigintToNumber })
  amountPaise: number;

  @Column({ name: 'balance_after_paise', type: 'bigint', transformer: bigintToNumber })
  balanceAfterPaise: number;

  @Column('text')
  reason: string;

  @Column({ type: 'text', nullable: true })
  reference: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
