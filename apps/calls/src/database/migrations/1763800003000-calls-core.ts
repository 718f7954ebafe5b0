import { MigrationInterface, QueryRunner } from 'typeorm';

/** Carrier connections, numbers, calls with their sessions, raw carrier events and the post-call queue. */
export class CallsCore1763800003000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.connections (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        provider text NOT NULL,
        name text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX connections_partner_idx ON calls.connections (partner_id, provider)`);
    // Every partner has exactly one sandbox connection, created on first need; the index makes that race-safe.
    await q.query(
      `CREATE UNIQUE INDEX connections_one_sandbox_idx ON calls.connections (partner_id) WHERE provider = 'sandbox'`,
    );
    await q.query(`
      CREATE TABLE calls.phone_numbers (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        number text NOT NULL,
        connection_id uuid NOT NULL REFERENCES calls.connections(id),
        provider text NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT phone_numbers_partner_number_key UNIQUE (partner_id, number)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX phone_numbers_one_default_idx ON calls.phone_numbers (partner_id) WHERE is_default`,
    );
    await q.query(`
      CREATE TABLE calls.calls (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        agent_id uuid NOT NULL,
        agent_name text,
        session_id uuid NOT NULL UNIQUE,
        direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        from_number text NOT NULL,
        to_number text NOT NULL,
        phone_number_id text,
        connection_id uuid NOT NULL REFERENCES calls.connections(id),
        provider text NOT NULL,
        provider_call_id text,
        status text NOT NULL CHECK (status IN
          ('pending', 'ringing', 'in_progress', 'completed', 'failed', 'no_answer', 'busy', 'canceled')),
        disposition text,
        answered_by text,
        end_call_reason text,
        hangup_cause text,
        hangup_source text,
        bill_duration_seconds integer,
        duration_seconds integer,
        error_message text,
        client_reference_id text,
        variables jsonb NOT NULL DEFAULT '{}',
        agent_settings jsonb NOT NULL,
        concurrency_limit integer,
        provider_status text,
        provider_event text,
        started_at timestamptz(3),
        ended_at timestamptz(3),
        -- Millisecond precision: list cursors carry created_at as an ISO string, which must compare exactly.
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX calls_partner_page_idx ON calls.calls (partner_id, created_at, id)`);
    await q.query(
      `CREATE UNIQUE INDEX calls_provider_call_idx ON calls.calls (provider, provider_call_id) WHERE provider_call_id IS NOT NULL`,
    );
    // The concurrency check counts these rows on every start.
    await q.query(
      `CREATE INDEX calls_active_idx ON calls.calls (partner_id) WHERE status IN ('pending', 'ringing', 'in_progress')`,
    );
    await q.query(`
      CREATE TABLE calls.call_sessions (
        call_id uuid PRIMARY KEY REFERENCES calls.calls(id),
        session_id uuid NOT NULL UNIQUE,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'processing', 'completed', 'failed')),
        transcript jsonb NOT NULL DEFAULT '[]',
        hold_events jsonb NOT NULL DEFAULT '[]',
        hold jsonb,
        extraction jsonb,
        recording_key text,
        recording_duration_secs integer,
        duration_seconds integer NOT NULL DEFAULT 0,
        credits_used_paise integer NOT NULL DEFAULT 0,
        processing_complete boolean NOT NULL DEFAULT false,
        pipeline_completed_at timestamptz(3),
        started_at timestamptz(3),
        ended_at timestamptz(3)
      )`);
    await q.query(`
      CREATE TABLE calls.carrier_events (
        id uuid PRIMARY KEY,
        call_id uuid NOT NULL REFERENCES calls.calls(id),
        provider text NOT NULL,
        dedupe_key text NOT NULL,
        kind text NOT NULL,
        provider_status text,
        provider_event text,
        sequence integer,
        status text,
        applied boolean NOT NULL,
        payload jsonb NOT NULL,
        received_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT carrier_events_dedupe_key UNIQUE (call_id, dedupe_key)
      )`);
    await q.query(`
      CREATE TABLE calls.post_call_jobs (
        call_id uuid PRIMARY KEY REFERENCES calls.calls(id),
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        run_after timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX post_call_jobs_due_idx ON calls.post_call_jobs (run_after) WHERE status = 'queued'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.post_call_jobs`);
    await q.query(`DROP TABLE calls.carrier_events`);
    await q.query(`DROP TABLE calls.call_sessions`);
    await q.query(`DROP TABLE calls.calls`);
    await q.query(`DROP TABLE calls.phone_numbers`);
    await q.query(`DROP TABLE calls.connections`);
  }
}
