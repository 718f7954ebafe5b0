import { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key records of routes that honour the header (POST /calls/start). */
export class IdempotencyKeys1763800004000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gateway.idempotency_keys (
        partner_id uuid NOT NULL REFERENCES gateway.partners(id),
        key text NOT NULL,
        request_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('in_progress', 'done')),
        response_status integer,
        response_body jsonb,
        -- An in-progress claim of a crashed gateway expires, so the key is not blocked forever.
        locked_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (partner_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_idx ON gateway.idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.idempotency_keys`);
  }
}
