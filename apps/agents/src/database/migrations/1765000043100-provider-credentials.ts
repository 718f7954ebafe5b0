import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts' speech provider keys: one per (account, provider), the key sealed, only its last four in clear. */
export class ProviderCredentials1765000043100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.provider_credentials (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        provider text NOT NULL
          CHECK (provider IN ('openai', 'elevenlabs', 'cartesia', 'deepgram', 'azure', 'sarvam', 'assemblyai')),
        label text CHECK (char_length(label) BETWEEN 1 AND 100),
        region text,
        key_last4 text NOT NULL,
        key_sealed text NOT NULL,
        checked_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX provider_credentials_partner_provider_key
         ON agents.provider_credentials (partner_id, provider)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.provider_credentials`);
  }
}
