import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Carrier credentials (encrypted) beside their connections, phone-number import fields, inbound routing
 * policies and the decisions they produced.
 */
export class Telephony1763800006000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // carrier_a and carrier_b: one connection per partner, replaced in place by PUT /config/telephony/<provider>.
    await q.query(
      `CREATE UNIQUE INDEX connections_one_carrier_idx ON calls.connections (partner_id, provider)
         WHERE provider IN ('carrier_a', 'carrier_b')`,
    );
    await q.query(`
      CREATE TABLE calls.connection_credentials (
        connection_id uuid PRIMARY KEY REFERENCES calls.connections(id) ON DELETE CASCADE,
        partner_id uuid NOT NULL,
        -- auth_id / account_sid / API key, masked for display; the real values are only in sealed.
        account_id_masked text NOT NULL,
        -- AES-256-GCM (SECRETS_KEY) of the credential JSON, bound to the connection id.
        sealed text NOT NULL,
        from_number text,
        api_base_url text,
        label text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE calls.phone_numbers ADD COLUMN label text`);
    await q.query(`ALTER TABLE calls.phone_numbers ADD COLUMN agent_id uuid`);
    await q.query(`ALTER TABLE calls.phone_numbers ADD COLUMN application_id text`);
    await q.query(`CREATE INDEX phone_numbers_page_idx ON calls.phone_numbers (partner_id, created_at, id)`);
    await q.query(`
      CREATE TABLE calls.inbound_route_policies (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        scope text NOT NULL CHECK (scope IN ('PHONE_NUMBER', 'AGENT', 'PARTNER')),
        phone_number_id text REFERENCES calls.phone_numbers(id) ON DELETE CASCADE,
        agent_id uuid,
        name text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        webhook_url text NOT NULL,
        webhook_secret_sealed text,
        timeout_ms integer NOT NULL CHECK (timeout_ms BETWEEN 500 AND 10000),
        failure_action text NOT NULL CHECK (failure_action IN ('ANSWER_WITH_AI', 'REJECT')),
        allowed_actions text[] NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT inbound_route_policies_target_check CHECK (
          (scope = 'PHONE_NUMBER' AND phone_number_id IS NOT NULL AND agent_id IS NULL) OR
          (scope = 'AGENT' AND agent_id IS NOT NULL AND phone_number_id IS NULL) OR
          (scope = 'PARTNER' AND agent_id IS NULL AND phone_number_id IS NULL))
      )`);
    // One policy per target, so resolution never has to choose between two of one scope.
    await q.query(
      `CREATE UNIQUE INDEX inbound_policies_number_idx ON calls.inbound_route_policies (partner_id, phone_number_id)
         WHERE scope = 'PHONE_NUMBER'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX inbound_policies_agent_idx ON calls.inbound_route_policies (partner_id, agent_id)
         WHERE scope = 'AGENT'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX inbound_policies_partner_idx ON calls.inbound_route_policies (partner_id)
         WHERE scope = 'PARTNER'`,
    );
    await q.query(`
      CREATE TABLE calls.inbound_route_decisions (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        policy_id text,
        policy_scope text,
        phone_number_id text,
        provider text NOT NULL,
        provider_call_id text NOT NULL,
        from_number text NOT NULL,
        to_number text NOT NULL,
        action text NOT NULL CHECK (action IN ('ANSWER_WITH_AI', 'SELECT_AGENT', 'TRANSFER', 'REJECT')),
        source text NOT NULL CHECK (source IN ('webhook', 'failure_action', 'no_policy')),
        agent_id uuid,
        transfer_to_number text,
        webhook_status integer,
        webhook_latency_ms integer,
        failure_reason text,
        call_id uuid,
        session_id uuid,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        -- A carrier retrying the same inbound webhook gets the recorded decision, not a second one.
        CONSTRAINT inbound_decisions_call_key UNIQUE (partner_id, provider, provider_call_id)
      )`);
    await q.query(
      `CREATE INDEX inbound_decisions_page_idx ON calls.inbound_route_decisions (partner_id, created_at, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.inbound_route_decisions`);
    await q.query(`DROP TABLE calls.inbound_route_policies`);
    await q.query(`DROP INDEX calls.phone_numbers_page_idx`);
    await q.query(`ALTER TABLE calls.phone_numbers DROP COLUMN application_id`);
    await q.query(`ALTER TABLE calls.phone_numbers DROP COLUMN agent_id`);
    await q.query(`ALTER TABLE calls.phone_numbers DROP COLUMN label`);
    await q.query(`DROP TABLE calls.connection_credentials`);
    await q.query(`DROP INDEX calls.connections_one_carrier_idx`);
  }
}
