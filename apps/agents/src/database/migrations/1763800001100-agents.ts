import { MigrationInterface, QueryRunner } from 'typeorm';

export class Agents1763800001100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.projects (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT projects_id_partner_key UNIQUE (id, partner_id)
      )`);
    // One default project per partner, created on first use; the unique index makes that race-free.
    await q.query(
      `CREATE UNIQUE INDEX projects_one_default_idx ON agents.projects (partner_id) WHERE is_default`,
    );
    await q.query(`
      CREATE TABLE agents.agents (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        project_id uuid NOT NULL,
        agent_name text NOT NULL CHECK (char_length(agent_name) BETWEEN 1 AND 50),
        prompt text NOT NULL CHECK (char_length(prompt) BETWEEN 1 AND 120000),
        agent_type text NOT NULL CHECK (agent_type IN ('inbound', 'outbound')),
        voice_id uuid NOT NULL REFERENCES agents.voices(id),
        spoken_languages text[] NOT NULL DEFAULT '{}',
        intro_message text,
        voicemail_detection_enabled boolean NOT NULL DEFAULT true,
        screener_handling_enabled boolean NOT NULL DEFAULT false,
        voicemail_message text,
        enable_recording boolean NOT NULL DEFAULT true,
        kb_threshold text CHECK (kb_threshold IN ('low', 'medium', 'high')),
        kb_include_summaries boolean NOT NULL DEFAULT false,
        kb_result_format text,
        kb_enable_llm_processing boolean NOT NULL DEFAULT false,
        kb_llm_system_prompt text,
        end_call_enabled boolean NOT NULL DEFAULT true,
        end_call_message text,
        end_call_instructions text,
        transfer_enabled boolean NOT NULL DEFAULT false,
        transfer_number text,
        transfer_message text,
        transfer_instructions text,
        user_idle_enabled boolean NOT NULL DEFAULT true,
        tool_ack_config jsonb,
        extraction_enabled boolean NOT NULL DEFAULT true,
        extraction_config jsonb NOT NULL DEFAULT '{"keys": []}',
        max_call_duration_secs integer CHECK (max_call_duration_secs BETWEEN 60 AND 3600),
        background_audio_id uuid REFERENCES agents.background_audio(id),
        background_audio_volume double precision NOT NULL DEFAULT 0.3 CHECK (background_audio_volume BETWEEN 0 AND 1),
        webhooks_include_account_endpoints boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        -- The project must be one of the same partner's.
        CONSTRAINT agents_project_fk FOREIGN KEY (project_id, partner_id) REFERENCES agents.projects (id, partner_id),
        CONSTRAINT agents_transfer_number_check CHECK (NOT transfer_enabled OR transfer_number IS NOT NULL),
        CONSTRAINT agents_screener_check CHECK (NOT screener_handling_enabled OR voicemail_detection_enabled)
      )`);
    // Names are unique among live agents; a deleted agent's name can be used again.
    await q.query(
      `CREATE UNIQUE INDEX agents_partner_name_key ON agents.agents (partner_id, agent_name) WHERE deleted_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX agents_partner_page_idx ON agents.agents (partner_id, created_at, id) WHERE deleted_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.agents`);
    await q.query(`DROP TABLE agents.projects`);
  }
}
