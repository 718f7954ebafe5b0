import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether the voice service is still streaming the call's audio: post-call processing waits for its
 * report (transcript tail, recording) before it completes the session.
 */
export class SessionMediaStream1764100020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE calls.call_sessions ADD COLUMN media_stream text CHECK (media_stream IN ('live', 'ended'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN media_stream`);
  }
}
