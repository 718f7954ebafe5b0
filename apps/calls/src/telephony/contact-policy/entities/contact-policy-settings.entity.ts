import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { CallingWindow } from '@vap/api';

/** One account's calling window and frequency caps; an account without a row has neither. */
@Entity({ name: 'contact_policy_settings' })
export class ContactPolicySettingsRow {
  @PrimaryColumn({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'calling_window', type: 'jsonb', nullable: true })
  callingWindow: CallingWindow | null;

  @Column({ name: 'windows_apply_to_single_calls', type: 'boolean' })
  windowsApplyToSingleCalls: boolean;

  @Column({ name: 'max_attempts_per_day', type: 'integer', nullable: true })
  maxAttemptsPerDay: number | null;

  @Column({ name: 'max_attempts_per_7_days', type: 'integer', nullable: true })
  maxAttemptsPer7Days: number | null;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
