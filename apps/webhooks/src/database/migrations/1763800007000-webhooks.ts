import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoints, the per-agent fan-out flag, and the delivery queue with its attempt history. Timestamps that
 * cursors page on are timestamptz(3), so an ISO cursor matches rows exactly.
 */
export class Webhooks1763800007000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks.endpoints (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        agent_id uuid,
        label text NOT NULL,
        url text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        events text[] NOT NULL DEFAULT '{}',
        secret_sealed text NOT NULL,
        previous_secret_sealed text,
        previous_secret_expires_at timestamptz(3),
        last_delivery_at timestamptz(3),
        last_delivery_status text,
        failing_since timestamptz(3),
        disabled_reason text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX endpoints_partner_label_key ON webhooks.endpoints (partner_id, label)`,
    );
    await q.query(`CREATE INDEX endpoints_partner_agent_idx ON webhooks.endpoints (partner_id, agent_id)`);
    await q.query(`
      CREATE TABLE webhooks.agent_settings (
        agent_id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        include_account_endpoints boolean NOT NULL DEFAULT true,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE webhooks.deliveries (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        endpoint_id uuid NOT NULL REFERENCES webhooks.endpoints (id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        agent_id uuid,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        round_start integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3),
        locked_by text,
        locked_until timestamptz,
        last_status_code integer,
        last_error text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        completed_at timestamptz(3),
        CONSTRAINT deliveries_status_check CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed'))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX deliveries_event_endpoint_key ON webhooks.deliveries (event_id, endpoint_id)`,
    );
    await q.query(
      `CREATE INDEX deliveries_due_idx ON webhooks.deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX deliveries_leased_idx ON webhooks.deliveries (locked_until) WHERE status = 'delivering'`,
    );
    await q.query(
      `CREATE INDEX deliveries_endpoint_history_idx ON webhooks.deliveries (endpoint_id, created_at DESC, id DESC)`,
    );
    await q.query(`
      CREATE TABLE webhooks.delivery_attempts (
        delivery_id uuid NOT NULL REFERENCES webhooks.deliveries (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        started_at timestamptz(3) NOT NULL,
        latency_ms integer NOT NULL,
        status_code integer,
        outcome text NOT NULL,
        response_body text,
        error text,
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhooks.delivery_attempts`);
    await q.query(`DROP TABLE webhooks.deliveries`);
    await q.query(`DROP TABLE webhooks.agent_settings`);
    await q.query(`DROP TABLE webhooks.endpoints`);
  }
}
