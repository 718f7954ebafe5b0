import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a call's charge is for, kept on the call so session.completed and the unbilled charges can name it
 * to the gateway's ledger: the campaign that dialled it (null for POST /calls/start, inbound calls and
 * browser sessions) and the agent's project when the call started. Earlier calls keep nulls: the campaign
 * was never stored, and the project lives in the agents service's schema.
 */
export class CallBillingAttribution1765000010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE calls.calls ADD COLUMN campaign_id text NULL, ADD COLUMN project_id uuid NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls DROP COLUMN project_id, DROP COLUMN campaign_id`);
  }
}
