import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-call delivery order: a delivery's call (order_key), its place among that call's deliveries
 * (order_seq) and the place of the status it follows (order_after). The index serves the claim's checks
 * for an earlier unfinished delivery and for the predecessor, both per (endpoint, call).
 */
export class DeliveryOrder1765410000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhooks.deliveries
        ADD COLUMN order_key text,
        ADD COLUMN order_seq smallint,
        ADD COLUMN order_after smallint,
        ADD CONSTRAINT deliveries_order_check CHECK ((order_key IS NULL) = (order_seq IS NULL))`);
    await q.query(
      `CREATE INDEX deliveries_order_idx ON webhooks.deliveries (endpoint_id, order_key, order_seq)
       WHERE order_key IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhooks.deliveries_order_idx`);
    await q.query(`
      ALTER TABLE webhooks.deliveries
        DROP CONSTRAINT deliveries_order_check,
        DROP COLUMN order_after,
        DROP COLUMN order_seq,
        DROP COLUMN order_key`);
  }
}
