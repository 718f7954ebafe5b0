import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reseller client management. A partner the operator marks a reseller (is_reseller) creates client accounts:
 * partners of their own whose reseller_id names it, with a contact email, a price per minute the reseller
 * charges them (price_per_minute_paise; null: the platform's price), and who suspended them (suspended_by,
 * so a reseller cannot lift the operator's suspension). A client is never a reseller itself.
 *
 * The ledger gains two entry types: `transfer` (a reseller funding a client: one entry in each account) and
 * `resale` (the reseller's margin on a client's charge), and client_id, the client such an entry of the
 * reseller's concerns. Each request a reseller's key makes on behalf of a client is kept in
 * reseller_audit_entries (pruned after a retention period).
 */
export class ResellerClients1765400500000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE gateway.partners
        ADD COLUMN is_reseller boolean NOT NULL DEFAULT false,
        ADD COLUMN reseller_id uuid NULL REFERENCES gateway.partners(id),
        ADD COLUMN contact_email text NULL,
        ADD COLUMN price_per_minute_paise integer NULL CHECK (price_per_minute_paise > 0),
        ADD COLUMN suspended_by text NULL CHECK (suspended_by IN ('operator', 'reseller')),
        ADD CONSTRAINT partners_client_not_reseller CHECK (NOT (is_reseller AND reseller_id IS NOT NULL))`);
    // GET /clients: one reseller's clients, oldest first.
    await q.query(
      `CREATE INDEX partners_reseller_idx ON gateway.partners (reseller_id, created_at, id)
         WHERE reseller_id IS NOT NULL`,
    );
    await q.query(`ALTER TABLE gateway.ledger_entries ADD COLUMN client_id uuid NULL`);
    await q.query(`ALTER TABLE gateway.ledger_entries DROP CONSTRAINT ledger_entries_type_check`);
    await q.query(
      `ALTER TABLE gateway.ledger_entries ADD CONSTRAINT ledger_entries_type_check
         CHECK (type IN ('charge', 'top_up', 'adjustment', 'refund', 'transfer', 'resale'))`,
    );
    await q.query(`ALTER TABLE gateway.api_keys DROP CONSTRAINT api_keys_created_via_check`);
    await q.query(
      `ALTER TABLE gateway.api_keys ADD CONSTRAINT api_keys_created_via_check
         CHECK (created_via IN ('operator', 'console', 'reseller'))`,
    );
    await q.query(`
      CREATE TABLE gateway.reseller_audit_entries (
        id uuid PRIMARY KEY,
        reseller_id uuid NOT NULL REFERENCES gateway.partners(id),
        client_id uuid NOT NULL REFERENCES gateway.partners(id),
        api_key_id uuid NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        status integer NOT NULL,
        request_id text NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // GET /clients/{id}/audit (newest first) and the retention prune.
    await q.query(
      `CREATE INDEX reseller_audit_client_idx ON gateway.reseller_audit_entries (client_id, created_at, id)`,
    );
    await q.query(`CREATE INDEX reseller_audit_created_idx ON gateway.reseller_audit_entries (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.reseller_audit_entries`);
    await q.query(`ALTER TABLE gateway.api_keys DROP CONSTRAINT api_keys_created_via_check`);
    await q.query(`UPDATE gateway.api_keys SET created_via = NULL WHERE created_via = 'reseller'`);
    await q.query(
      `ALTER TABLE gateway.api_keys ADD CONSTRAINT api_keys_created_via_check
         CHECK (created_via IN ('operator', 'console'))`,
    );
    await q.query(`ALTER TABLE gateway.ledger_entries DROP CONSTRAINT ledger_entries_type_check`);
    await q.query(
      `ALTER TABLE gateway.ledger_entries ADD CONSTRAINT ledger_entries_type_check
         CHECK (type IN ('charge', 'top_up', 'adjustment', 'refund'))`,
    );
    await q.query(`ALTER TABLE gateway.ledger_entries DROP COLUMN client_id`);
    await q.query(`DROP INDEX gateway.partners_reseller_idx`);
    await q.query(`
      ALTER TABLE gateway.partners
        DROP CONSTRAINT partners_client_not_reseller,
        DROP COLUMN suspended_by,
        DROP COLUMN price_per_minute_paise,
        DROP COLUMN contact_email,
        DROP COLUMN reseller_id,
        DROP COLUMN is_reseller`);
  }
}
