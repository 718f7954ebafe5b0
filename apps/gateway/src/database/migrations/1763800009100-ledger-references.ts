import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A ledger reference names the one thing that moved a balance (a call's charge is `call:<id>`), so the
 * event path and the billing reconciler can never both debit the same call.
 */
export class LedgerReferences1763800009100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE UNIQUE INDEX ledger_entries_reference_uq ON gateway.ledger_entries (reference) WHERE reference IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX gateway.ledger_entries_reference_uq`);
  }
}
