import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing that does not depend on event delivery: every ended call with answered time leaves a charge
 * row the gateway can ask for until it acknowledges it; carrier reconciliation of terminal callbacks
 * (a queue of checks against the carrier's REST API, and the call's outcome of them).
 */
export class CallCharges1763800009100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.call_charges (
        call_id uuid PRIMARY KEY REFERENCES calls.calls(id),
        partner_id uuid NOT NULL,
        session_id uuid NOT NULL,
        bill_seconds integer NOT NULL CHECK (bill_seconds >= 0),
        amount_paise integer NOT NULL CHECK (amount_paise >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        billed_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX call_charges_unbilled_idx ON calls.call_charges (partner_id, call_id) WHERE billed_at IS NULL`,
    );
    await q.query(`
      ALTER TABLE calls.calls ADD COLUMN carrier_reconciliation text
        CHECK (carrier_reconciliation IN ('pending', 'verified', 'unreconciled'))`);
    await q.query(`
      CREATE TABLE calls.carrier_reconciliations (
        call_id uuid PRIMARY KEY REFERENCES calls.calls(id),
        claimed_event jsonb NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done')),
        attempts integer NOT NULL DEFAULT 0,
        run_after timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX carrier_reconciliations_due_idx ON calls.carrier_reconciliations (run_after) WHERE status = 'queued'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.carrier_reconciliations`);
    await q.query(`ALTER TABLE calls.calls DROP COLUMN carrier_reconciliation`);
    await q.query(`DROP TABLE calls.call_charges`);
  }
}
