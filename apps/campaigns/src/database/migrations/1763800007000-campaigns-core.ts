import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaigns, their contacts (the work queue the dispatcher claims with FOR UPDATE SKIP LOCKED), one row
 * per call attempt (in flight until its call releases concurrency), and the partner snapshots the
 * dispatcher places calls with. Timestamps are timestamptz(3) so that list cursors never repeat rows.
 */
export class CampaignsCore1763800007000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaigns.campaigns (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        agent_id uuid NOT NULL,
        agent_name text NOT NULL,
        provider text,
        type text NOT NULL DEFAULT 'outbound',
        phone_numbers jsonb NOT NULL DEFAULT '[]',
        concurrency_limit int NOT NULL CHECK (concurrency_limit BETWEEN 1 AND 10),
        retry_concurrency int NOT NULL CHECK (retry_concurrency >= 0 AND retry_concurrency <= concurrency_limit),
        retry_count int NOT NULL CHECK (retry_count >= 0),
        cooldown_minutes int NOT NULL CHECK (cooldown_minutes >= 0),
        retry_delays_minutes int[] NOT NULL DEFAULT '{}',
        callback_enabled boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'running', 'paused', 'completed')),
        pause_reason text,
        total_contacts int NOT NULL DEFAULT 0,
        completed_count int NOT NULL DEFAULT 0,
        failed_count int NOT NULL DEFAULT 0,
        skipped_count int NOT NULL DEFAULT 0,
        started_at timestamptz(3),
        paused_at timestamptz(3),
        completed_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX campaigns_partner_created_idx ON campaigns.campaigns (partner_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX campaigns_running_idx ON campaigns.campaigns (status) WHERE status = 'running'`,
    );
    await q.query(`
      CREATE TABLE campaigns.contacts (
        id text PRIMARY KEY,
        campaign_id text NOT NULL REFERENCES campaigns.campaigns(id) ON DELETE CASCADE,
        partner_id uuid NOT NULL,
        seq bigserial NOT NULL,
        phone_number text NOT NULL,
        variables jsonb NOT NULL DEFAULT '{}',
        external_id text,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'dialing', 'retry_wait', 'completed', 'failed', 'skipped')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3),
        last_call_status text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (campaign_id, phone_number)
      )`);
    // The dispatcher's queue: due contacts of one campaign in order.
    await q.query(`
      CREATE INDEX contacts_due_idx ON campaigns.contacts (campaign_id, next_attempt_at, seq)
        WHERE status IN ('pending', 'retry_wait')`);
    await q.query(`CREATE INDEX contacts_campaign_seq_idx ON campaigns.contacts (campaign_id, seq)`);
    await q.query(`
      CREATE TABLE campaigns.attempts (
        id text PRIMARY KEY,
        campaign_id text NOT NULL REFERENCES campaigns.campaigns(id) ON DELETE CASCADE,
        contact_id text NOT NULL REFERENCES campaigns.contacts(id) ON DELETE CASCADE,
        partner_id uuid NOT NULL,
        attempt int NOT NULL,
        is_retry boolean NOT NULL,
        call_id uuid,
        status text NOT NULL CHECK (status IN ('dialing', 'active', 'ended', 'abandoned')),
        call_status text,
        lease_until timestamptz(3) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        ended_at timestamptz(3)
      )`);
    // In-flight attempts are counted under the partner's dispatch lock; keep that count an index scan.
    await q.query(
      `CREATE INDEX attempts_in_flight_idx ON campaigns.attempts (partner_id, campaign_id) WHERE status IN ('dialing', 'active')`,
    );
    await q.query(`CREATE INDEX attempts_contact_idx ON campaigns.attempts (contact_id, attempt)`);
    await q.query(
      `CREATE UNIQUE INDEX attempts_call_idx ON campaigns.attempts (call_id) WHERE call_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE campaigns.partner_snapshots (
        id uuid PRIMARY KEY,
        status text NOT NULL,
        voice_tier text NOT NULL,
        concurrency_limit int NOT NULL,
        balance_paise bigint NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE campaigns.partner_snapshots`);
    await q.query(`DROP TABLE campaigns.attempts`);
    await q.query(`DROP TABLE campaigns.contacts`);
    await q.query(`DROP TABLE campaigns.campaigns`);
  }
}
