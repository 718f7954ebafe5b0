import { MigrationInterface, QueryRunner } from 'typeorm';

/** Where a carrier keeps a call's recording until the post-call pipeline copies it into blob storage. */
export class CarrierRecordings1763800007000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions ADD COLUMN recording_source_url text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN recording_source_url`);
  }
}
