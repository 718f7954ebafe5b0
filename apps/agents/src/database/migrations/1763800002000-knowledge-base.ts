import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Knowledge base: documents, their links to agents (with per-link indexing state), the searchable chunks
 * of each link, and the Postgres job queue that indexes and cleans up asynchronously.
 */
export class KnowledgeBase1763800002000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.documents (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        description text NOT NULL DEFAULT '',
        type text NOT NULL CHECK (type IN ('pdf', 'txt', 'md', 'html', 'web_link')),
        status text NOT NULL CHECK (status IN ('uploading', 'ready')),
        file_size bigint NOT NULL CHECK (file_size >= 0),
        mime_type text NOT NULL,
        url text,
        storage_key text,
        upload_expires_at timestamptz,
        confirmed_at timestamptz,
        -- Millisecond precision: list cursors carry created_at as an ISO string, which must compare exactly.
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        CONSTRAINT documents_id_partner_key UNIQUE (id, partner_id),
        -- A web link has a URL and no stored file; an upload the other way round.
        CONSTRAINT documents_source_check CHECK (
          (type = 'web_link' AND url IS NOT NULL AND storage_key IS NULL)
          OR (type <> 'web_link' AND url IS NULL AND storage_key IS NOT NULL)
        )
      )`);
    await q.query(
      `CREATE INDEX documents_partner_page_idx ON agents.documents (partner_id, created_at, id) WHERE deleted_at IS NULL`,
    );

    await q.query(`
      CREATE TABLE agents.agent_documents (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        agent_id uuid NOT NULL REFERENCES agents.agents (id),
        document_id uuid NOT NULL,
        index_status text NOT NULL DEFAULT 'pending'
          CHECK (index_status IN ('pending', 'indexing', 'indexed', 'failed')),
        index_error text,
        chunk_count integer NOT NULL DEFAULT 0,
        summary text,
        indexed_at timestamptz,
        unlinked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- The document must be the same partner's; deleting it (after its cleanup job) removes its links.
        CONSTRAINT agent_documents_document_fk FOREIGN KEY (document_id, partner_id)
          REFERENCES agents.documents (id, partner_id) ON DELETE CASCADE
      )`);
    // One live link per agent and document; an unlinked row waits for its cleanup job beside a new link.
    await q.query(
      `CREATE UNIQUE INDEX agent_documents_live_key ON agents.agent_documents (agent_id, document_id) WHERE unlinked_at IS NULL`,
    );
    await q.query(`CREATE INDEX agent_documents_document_idx ON agents.agent_documents (document_id)`);

    await q.query(`
      CREATE TABLE agents.kb_chunks (
        id uuid PRIMARY KEY,
        link_id uuid NOT NULL REFERENCES agents.agent_documents (id) ON DELETE CASCADE,
        partner_id uuid NOT NULL,
        agent_id uuid NOT NULL,
        document_id uuid NOT NULL,
        chunk_index integer NOT NULL,
        content text NOT NULL,
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT kb_chunks_link_index_key UNIQUE (link_id, chunk_index)
      )`);
    await q.query(`CREATE INDEX kb_chunks_tsv_idx ON agents.kb_chunks USING GIN (tsv)`);
    await q.query(`CREATE INDEX kb_chunks_agent_idx ON agents.kb_chunks (agent_id)`);

    await q.query(`
      CREATE TABLE agents.kb_jobs (
        id uuid PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('index_link', 'purge_link', 'purge_document')),
        partner_id uuid NOT NULL,
        link_id uuid,
        document_id uuid,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL,
        run_at timestamptz NOT NULL DEFAULT now(),
        -- The claim's token: only the worker holding it may finish or retry the job.
        locked_by text,
        locked_until timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX kb_jobs_due_idx ON agents.kb_jobs (run_at) WHERE status = 'queued'`);
    await q.query(`CREATE INDEX kb_jobs_lease_idx ON agents.kb_jobs (locked_until) WHERE status = 'running'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.kb_jobs`);
    await q.query(`DROP TABLE agents.kb_chunks`);
    await q.query(`DROP TABLE agents.agent_documents`);
    await q.query(`DROP TABLE agents.documents`);
  }
}
