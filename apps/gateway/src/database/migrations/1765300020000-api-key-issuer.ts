import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who made each API key, so the console can say why a key the team never made is listed (the operator's key of
 * the account's opening): 'operator' or 'console' (with the user). Null on keys made before it was kept.
 */
export class ApiKeyIssuer1765300020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.api_keys ADD COLUMN created_via text NULL`);
    await q.query(`ALTER TABLE gateway.api_keys ADD COLUMN created_by_user_id uuid NULL`);
    await q.query(
      `ALTER TABLE gateway.api_keys ADD CONSTRAINT api_keys_created_via_check
         CHECK (created_via IN ('operator', 'console'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.api_keys DROP CONSTRAINT api_keys_created_via_check`);
    await q.query(`ALTER TABLE gateway.api_keys DROP COLUMN created_by_user_id`);
    await q.query(`ALTER TABLE gateway.api_keys DROP COLUMN created_via`);
  }
}
