import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The customer (sub-tenant) a call or browser session is for: whose connections its custom functions use.
 * Browser sessions kept it on their own row; it now lives on the call, which the voice service is told of.
 */
export class CallCustomer1765400100100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls ADD COLUMN customer_id text`);
    await q.query(
      `UPDATE calls.calls c SET customer_id = b.customer_id
         FROM calls.browser_sessions b WHERE b.call_id = c.id AND b.customer_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls DROP COLUMN customer_id`);
  }
}
