import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cloud speech providers that served a call on the platform's keys (the voice service's end-of-stream
 * report names them): the call's charge carries them to the gateway's ledger. Calls before it have none.
 */
export class CallPlatformSpeech1765200050000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE calls.calls ADD COLUMN platform_speech_providers text[] NOT NULL DEFAULT '{}'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls DROP COLUMN platform_speech_providers`);
  }
}
