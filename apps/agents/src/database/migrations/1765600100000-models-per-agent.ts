import { MigrationInterface, QueryRunner } from 'typeorm';

const SPEECH_PROVIDERS = `'openai', 'elevenlabs', 'cartesia', 'deepgram', 'azure', 'sarvam', 'assemblyai'`;
const MODEL_PROVIDERS = `'anthropic', 'google', 'azure_openai', 'groq', 'together', 'fireworks', 'openrouter', 'deepseek', 'mistral'`;

/**
 * Models per agent: an agent's model and its fallbacks (null and []: the deployment's default model, as every
 * existing agent keeps), and provider credentials for model providers and for the account's own model server
 * (`custom`: its base URL, an optional key, the sealed secret its requests are signed with).
 */
export class ModelsPerAgent1765600100000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE agents.agents
        ADD COLUMN model jsonb,
        ADD COLUMN fallback_models jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await q.query(`
      ALTER TABLE agents.provider_credentials
        DROP CONSTRAINT provider_credentials_provider_check,
        ADD CONSTRAINT provider_credentials_provider_check
          CHECK (provider IN (${SPEECH_PROVIDERS}, ${MODEL_PROVIDERS}, 'custom')),
        ALTER COLUMN key_last4 DROP NOT NULL,
        ALTER COLUMN key_sealed DROP NOT NULL,
        ADD COLUMN base_url text,
        ADD COLUMN signing_secret_sealed text,
        ADD CONSTRAINT provider_credentials_key_check
          CHECK ((key_sealed IS NULL) = (key_last4 IS NULL) AND (key_sealed IS NOT NULL OR provider = 'custom')),
        ADD CONSTRAINT provider_credentials_custom_check
          CHECK ((provider = 'custom') = (base_url IS NOT NULL)
             AND (provider = 'custom') = (signing_secret_sealed IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM agents.provider_credentials WHERE provider NOT IN (${SPEECH_PROVIDERS})`);
    await q.query(`
      ALTER TABLE agents.provider_credentials
        DROP CONSTRAINT provider_credentials_custom_check,
        DROP CONSTRAINT provider_credentials_key_check,
        DROP COLUMN signing_secret_sealed,
        DROP COLUMN base_url,
        ALTER COLUMN key_sealed SET NOT NULL,
        ALTER COLUMN key_last4 SET NOT NULL,
        DROP CONSTRAINT provider_credentials_provider_check,
        ADD CONSTRAINT provider_credentials_provider_check CHECK (provider IN (${SPEECH_PROVIDERS}))`);
    await q.query(`ALTER TABLE agents.agents DROP COLUMN fallback_models, DROP COLUMN model`);
  }
}
