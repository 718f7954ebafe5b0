import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A client held with its reseller: suspended_by 'reseller_account' marks a client suspended because the
 * operator suspended its reseller (lifted when the reseller is approved again, unlike the reseller's own or
 * the operator's suspension of the client). client_fund_keys: the Idempotency-Key of POST /clients/{id}/fund,
 * with the answer it replays.
 */
export class ResellerClientHolds1765400710000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.partners DROP CONSTRAINT partners_suspended_by_check`);
    await q.query(
      `ALTER TABLE gateway.partners ADD CONSTRAINT partners_suspended_by_check
         CHECK (suspended_by IN ('operator', 'reseller', 'reseller_account'))`,
    );
    await q.query(`
      CREATE TABLE gateway.client_fund_keys (
        reseller_id uuid NOT NULL REFERENCES gateway.partners(id),
        key text NOT NULL,
        request_hash text NOT NULL,
        response jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (reseller_id, key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.client_fund_keys`);
    await q.query(`ALTER TABLE gateway.partners DROP CONSTRAINT partners_suspended_by_check`);
    await q.query(
      `UPDATE gateway.partners SET suspended_by = 'operator' WHERE suspended_by = 'reseller_account'`,
    );
    await q.query(
      `ALTER TABLE gateway.partners ADD CONSTRAINT partners_suspended_by_check
         CHECK (suspended_by IN ('operator', 'reseller'))`,
    );
  }
}
