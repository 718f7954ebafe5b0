import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each partner's count of active calls (pending, ringing, in progress) in a row of its own, kept by a
 * trigger on every insert and status change of a call, so it moves in the same transaction as the call
 * and no code path can forget it. Admissions lock the row to check the limit; a move that leaves the call
 * active touches nothing, and one that ends it holds the row only from its status update to its commit.
 */
export class PartnerActiveCalls1764300010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.partner_active_calls (
        partner_id uuid PRIMARY KEY,
        active integer NOT NULL CHECK (active >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      ) WITH (fillfactor = 50)`);
    await q.query(`
      CREATE FUNCTION calls.count_active_calls() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        was_active boolean := TG_OP <> 'INSERT' AND OLD.status IN ('pending', 'ringing', 'in_progress');
        is_active boolean := TG_OP <> 'DELETE' AND NEW.status IN ('pending', 'ringing', 'in_progress');
      BEGIN
        IF is_active AND NOT was_active THEN
          INSERT INTO calls.partner_active_calls AS c (partner_id, active) VALUES (NEW.partner_id, 1)
            ON CONFLICT (partner_id) DO UPDATE SET active = c.active + 1, updated_at = now();
        ELSIF was_active AND NOT is_active THEN
          UPDATE calls.partner_active_calls SET active = active - 1, updated_at = now()
           WHERE partner_id = OLD.partner_id;
        END IF;
        RETURN NULL;
      END $$`);
    // Taken while no call can move: the table's lock holds writers off between the count and the trigger.
    await q.query(`LOCK TABLE calls.calls IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(`
      INSERT INTO calls.partner_active_calls (partner_id, active)
      SELECT partner_id, count(*) FROM calls.calls
       WHERE status IN ('pending', 'ringing', 'in_progress') GROUP BY partner_id`);
    await q.query(`
      CREATE TRIGGER calls_count_active AFTER INSERT OR UPDATE OF status OR DELETE ON calls.calls
        FOR EACH ROW EXECUTE FUNCTION calls.count_active_calls()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER calls_count_active ON calls.calls`);
    await q.query(`DROP FUNCTION calls.count_active_calls()`);
    await q.query(`DROP TABLE calls.partner_active_calls`);
  }
}
