import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The voice replica serving the call's media stream, recorded at attach: when its heartbeat lapses, the
 * calls service ends the call (LostVoiceReplicaReaper). Indexed for the sweep, over live streams only.
 * voice_line_marks: per media stream, the next transcript line it has not recorded yet (the voice service
 * retries a line until it is acknowledged; a repeat is recorded once).
 */
export class SessionVoiceReplica1764560010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions ADD COLUMN voice_replica_id text`);
    await q.query(
      `ALTER TABLE calls.call_sessions ADD COLUMN voice_line_marks jsonb NOT NULL DEFAULT '{}'::jsonb`,
    );
    await q.query(
      `CREATE INDEX call_sessions_live_voice_replica ON calls.call_sessions (voice_replica_id)
        WHERE media_stream = 'live'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls.call_sessions_live_voice_replica`);
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN voice_line_marks`);
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN voice_replica_id`);
  }
}
