import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the platform last saw of each carrier connection (last successful and failed REST call, last verified
 * callback), and the time a connection was deleted: deleted connections stay as rows because past calls
 * reference them, and a later PUT /config/telephony/<carrier> brings the same connection back.
 */
export class ConnectionHealth1765400300000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.connections ADD COLUMN deleted_at timestamptz(3)`);
    await q.query(`
      CREATE TABLE calls.connection_health (
        connection_id uuid PRIMARY KEY REFERENCES calls.connections(id) ON DELETE CASCADE,
        last_success_at timestamptz(3),
        last_success_operation text,
        last_failure_at timestamptz(3),
        last_failure_operation text,
        last_failure_status integer,
        last_failure_reason text,
        last_callback_at timestamptz(3)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.connection_health`);
    await q.query(`ALTER TABLE calls.connections DROP COLUMN deleted_at`);
  }
}
