import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What the platform last saw of a carrier connection; written by ConnectionHealthRecorder (throttled upserts). */
@Entity({ name: 'connection_health' })
export class ConnectionHealthRow {
  @PrimaryColumn({ name: 'connection_id', type: 'uuid' })
  connectionId: string;

  @Column({ name: 'last_success_at', type: 'timestamptz', precision: 3, nullable: true })
  lastSuccessAt: Date | null;

  @Column({ name: 'last_success_operation', type: 'text', nullable: true })
  lastSuccessOperation: string | null;

  @Column({ name: 'last_failure_at', type: 'timestamptz', precision: 3, nullable: true })
  lastFailureAt: Date | null;

  @Column({ name: 'last_failure_operation', type: 'text', nullable: true })
  lastFailureOperation: string | null;

  @Column({ name: 'last_failure_status', type: 'integer', nullable: true })
  lastFailureStatus: number | null;

  @Column({ name: 'last_failure_reason', type: 'text', nullable: true })
  lastFailureReason: string | null;

  @Column({ name: 'last_callback_at', type: 'timestamptz', precision: 3, nullable: true })
  lastCallbackAt: Date | null;
}
