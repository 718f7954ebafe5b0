import { MigrationInterface, QueryRunner } from 'typeorm';

/** A key's permission scopes (names from API_KEY_SCOPES); NULL, every existing key: full access. */
export class ApiKeyScopes1764900070000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.api_keys ADD COLUMN scopes text[]`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.api_keys DROP COLUMN scopes`);
  }
}
