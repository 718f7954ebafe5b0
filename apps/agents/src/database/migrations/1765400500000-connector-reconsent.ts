import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connections a connector's credential endpoints moved away from (status reconnect_required: their tokens were
 * dropped, never sent to the new URL), and the browser binding of an authorization attempt (RFC 6749 §10.12: the
 * hash of the cookie the connect page set, checked at the callback).
 */
export class ConnectorReconsent1765400500000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE agents.customer_connections
        DROP CONSTRAINT customer_connections_status_check,
        ADD CONSTRAINT customer_connections_status_check
          CHECK (status IN ('pending', 'connected', 'expired', 'revoked', 'error', 'reconnect_required')),
        ADD COLUMN state_binding_hash text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE agents.customer_connections SET status = 'revoked' WHERE status = 'reconnect_required'`,
    );
    await q.query(`
      ALTER TABLE agents.customer_connections
        DROP COLUMN state_binding_hash,
        DROP CONSTRAINT customer_connections_status_check,
        ADD CONSTRAINT customer_connections_status_check
          CHECK (status IN ('pending', 'connected', 'expired', 'revoked', 'error'))`);
  }
}
