import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One account's SMS destination policy and caps; an account without a row has the platform's defaults. */
@Entity({ name: 'sms_policies' })
export class SmsPolicyRow {
  @PrimaryColumn({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  /** ISO codes the account may text; null: its own numbers' countries and the platform's list. */
  @Column({ name: 'allowed_countries', type: 'text', array: true, nullable: true })
  allowedCountries: string[] | null;

  /** null: the platform's SMS_MAX_PER_DAY. */
  @Column({ name: 'max_per_day', type: 'integer', nullable: true })
  maxPerDay: number | null;

  /** null: SEND_SMS_MAX_PER_CALL. */
  @Column({ name: 'max_per_call', type: 'integer', nullable: true })
  maxPerCall: number | null;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
