import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connectors (kinds of external account an account's customers connect: OAuth 2.0 or an API key) and each
 * customer's connection to one, its tokens sealed; custom functions may authenticate with the call's customer's
 * connection. A connect link's token and an authorization attempt's state are stored as SHA-256 hashes only.
 */
export class CustomerConnectors1765400100000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.connectors (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        type text NOT NULL CHECK (type IN ('oauth2', 'api_key')),
        oauth2 jsonb,
        client_secret_sealed text,
        api_key jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((type = 'oauth2') = (oauth2 IS NOT NULL) AND (type = 'api_key') = (api_key IS NOT NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX connectors_partner_name_key ON agents.connectors (partner_id, lower(name))`,
    );
    await q.query(`
      CREATE TABLE agents.customer_connections (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        customer_id text NOT NULL,
        connector_id text NOT NULL REFERENCES agents.connectors (id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('pending', 'connected', 'expired', 'revoked', 'error')),
        link_token_hash text,
        link_expires_at timestamptz,
        state_hash text,
        state_expires_at timestamptz,
        verifier_sealed text,
        access_token_sealed text,
        refresh_token_sealed text,
        token_expires_at timestamptz,
        scopes jsonb NOT NULL DEFAULT '[]',
        connected_at timestamptz,
        last_refreshed_at timestamptz,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX customer_connections_customer_connector_key
         ON agents.customer_connections (partner_id, customer_id, connector_id)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX customer_connections_link_key ON agents.customer_connections (link_token_hash)
         WHERE link_token_hash IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX customer_connections_state_key ON agents.customer_connections (state_hash)
         WHERE state_hash IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX customer_connections_connector ON agents.customer_connections (connector_id)`,
    );
    await q.query(`ALTER TABLE agents.custom_functions ADD COLUMN auth jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.custom_functions DROP COLUMN auth`);
    await q.query(`DROP TABLE agents.customer_connections`);
    await q.query(`DROP TABLE agents.connectors`);
  }
}
