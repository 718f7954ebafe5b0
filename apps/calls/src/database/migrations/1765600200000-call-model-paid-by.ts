import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whose key answered for each model that wrote a call's lines (the voice service's end-of-stream reports name
 * them, a set of {provider, model, paidBy}): with the tokens on the transcript's lines, the call's model_usage.
 * Calls before it have none: their model use says paid_by null.
 */
export class CallModelPaidBy1765600200000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls ADD COLUMN model_paid_by jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls DROP COLUMN model_paid_by`);
  }
}
