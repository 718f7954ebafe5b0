import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Keys of POST /calls/start, kept by the service that dials: a key names the one call placed
 * with it, so a retry learns that call instead of dialling again, whatever the gateway saw.
 */
export class StartCallKeys1763800008000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.start_call_keys (
        partner_id uuid NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        call_id uuid NOT NULL REFERENCES calls.calls(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (partner_id, key)
      )`);
    await q.query(`CREATE INDEX start_call_keys_created_idx ON calls.start_call_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.start_call_keys`);
  }
}
