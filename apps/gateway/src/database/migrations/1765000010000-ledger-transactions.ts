import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger as the partner's billing transactions: each entry's type and what it is for (the call or
 * browser session, its agent, campaign and project, the seconds billed), written with the balance change.
 * Earlier entries are typed from their reason (call_charge: charge; opening_balance and an operator's credit:
 * top_up; an operator's debit: adjustment) and charges get their call id back from the reference; what they
 * never recorded (agent, campaign, project, seconds, browser or phone) stays null.
 *
 * seq orders one partner's entries as their balances follow each other: it is drawn under the partner's
 * row lock, where created_at (the transaction's start, now()) can be earlier than an entry written before it.
 * Existing entries are numbered by (created_at, id); created_at becomes the time of the write itself.
 */
export class LedgerTransactions1765000010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE gateway.ledger_entries
        ADD COLUMN type text NULL,
        ADD COLUMN call_id uuid NULL,
        ADD COLUMN browser_session_id uuid NULL,
        ADD COLUMN agent_id uuid NULL,
        ADD COLUMN campaign_id text NULL,
        ADD COLUMN project_id uuid NULL,
        ADD COLUMN billed_seconds integer NULL`);
    await q.query(`
      UPDATE gateway.ledger_entries SET
        type = CASE
          WHEN reason LIKE 'call_charge%' THEN 'charge'
          WHEN amount_paise >= 0 THEN 'top_up'
          ELSE 'adjustment'
        END,
        call_id = CASE
          WHEN reference ~* '^call:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
          THEN substring(reference FROM 6)::uuid
        END`);
    await q.query(`ALTER TABLE gateway.ledger_entries ALTER COLUMN type SET NOT NULL`);
    await q.query(`ALTER TABLE gateway.ledger_entries ADD COLUMN seq bigint NULL`);
    await q.query(`
      UPDATE gateway.ledger_entries e SET seq = n.rn
        FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM gateway.ledger_entries) n
       WHERE n.id = e.id`);
    await q.query(`CREATE SEQUENCE gateway.ledger_entries_seq_seq OWNED BY gateway.ledger_entries.seq`);
    await q.query(
      `SELECT setval('gateway.ledger_entries_seq_seq', COALESCE((SELECT max(seq) FROM gateway.ledger_entries), 0) + 1, false)`,
    );
    await q.query(`
      ALTER TABLE gateway.ledger_entries
        ALTER COLUMN seq SET DEFAULT nextval('gateway.ledger_entries_seq_seq'),
        ALTER COLUMN seq SET NOT NULL,
        ALTER COLUMN created_at SET DEFAULT clock_timestamp()`);
    await q.query(`CREATE UNIQUE INDEX ledger_entries_seq_uq ON gateway.ledger_entries (seq)`);
    await q.query(
      `ALTER TABLE gateway.ledger_entries ADD CONSTRAINT ledger_entries_type_check
         CHECK (type IN ('charge', 'top_up', 'adjustment', 'refund'))`,
    );
    // GET /billing/transactions (newest first) and /billing/usage (a time range) of one partner.
    await q.query(`CREATE INDEX ledger_entries_partner_seq_idx ON gateway.ledger_entries (partner_id, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX gateway.ledger_entries_partner_seq_idx`);
    await q.query(`DROP INDEX gateway.ledger_entries_seq_uq`);
    await q.query(`ALTER TABLE gateway.ledger_entries ALTER COLUMN created_at SET DEFAULT now()`);
    await q.query(`
      ALTER TABLE gateway.ledger_entries
        DROP CONSTRAINT ledger_entries_type_check,
        DROP COLUMN seq,
        DROP COLUMN billed_seconds,
        DROP COLUMN project_id,
        DROP COLUMN campaign_id,
        DROP COLUMN agent_id,
        DROP COLUMN browser_session_id,
        DROP COLUMN call_id,
        DROP COLUMN type`);
  }
}
