import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A charge's platform-paid speech: the cloud speech providers that served the call on the platform's keys
 * (GET /billing/transactions shows them, GET /billing/usage sums the minutes of charges that name any). Null
 * on other entries and on charges written before it was kept: what they ran on was not recorded.
 */
export class LedgerPlatformSpeech1765200050000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.ledger_entries ADD COLUMN platform_speech_providers text[] NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.ledger_entries DROP COLUMN platform_speech_providers`);
  }
}
