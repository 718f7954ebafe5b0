import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What ends live calls besides their carrier: the replica that drives a call in-process (owner_id, see
 * ReplicaLiveness), a platform-side hang-up in flight (end_requested_*), the seconds a call has run by its
 * own clock (live_seconds) and the partner balances projected from the gateway's partner events.
 */
export class CallLifecycle1763800009200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE calls.calls
        ADD COLUMN owner_id uuid,
        ADD COLUMN carrier_leg_id text,
        ADD COLUMN end_requested_at timestamptz(3),
        ADD COLUMN end_requested_reason text`);
    // The liveness check looks up the owners of live calls only.
    await q.query(
      `CREATE INDEX calls_live_owner_idx ON calls.calls (owner_id)
         WHERE owner_id IS NOT NULL AND status IN ('pending', 'ringing', 'in_progress')`,
    );
    // Answered calls that ended after the partner's last known balance: charges the balance may not show yet.
    await q.query(
      `CREATE INDEX calls_partner_billed_idx ON calls.calls (partner_id, ended_at) WHERE bill_duration_seconds > 0`,
    );
    await q.query(`ALTER TABLE calls.call_sessions ADD COLUMN live_seconds real`);
    await q.query(`
      CREATE TABLE calls.partner_balances (
        partner_id uuid PRIMARY KEY,
        balance_paise bigint NOT NULL,
        -- When the gateway's partner row had this balance (its updated_at): older events never win.
        as_of timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.partner_balances`);
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN live_seconds`);
    await q.query(`DROP INDEX calls.calls_partner_billed_idx`);
    await q.query(`DROP INDEX calls.calls_live_owner_idx`);
    await q.query(`
      ALTER TABLE calls.calls
        DROP COLUMN owner_id,
        DROP COLUMN carrier_leg_id,
        DROP COLUMN end_requested_at,
        DROP COLUMN end_requested_reason`);
  }
}
