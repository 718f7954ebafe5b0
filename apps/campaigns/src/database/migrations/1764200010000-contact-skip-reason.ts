import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contact policy on campaigns: a campaign's own calling window; a contact's time zone (used when its number
 * does not fix one), why it was skipped (the calls service's refusal code, e.g. DO_NOT_CALL) and what it
 * waits for (OUTSIDE_CALLING_WINDOW, FREQUENCY_CAP_REACHED) until next_attempt_at.
 */
export class ContactSkipReason1764200010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns.campaigns ADD COLUMN calling_window jsonb`);
    await q.query(`ALTER TABLE campaigns.contacts ADD COLUMN skip_reason text`);
    await q.query(`ALTER TABLE campaigns.contacts ADD COLUMN wait_reason text`);
    await q.query(`ALTER TABLE campaigns.contacts ADD COLUMN timezone text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns.contacts DROP COLUMN timezone`);
    await q.query(`ALTER TABLE campaigns.contacts DROP COLUMN wait_reason`);
    await q.query(`ALTER TABLE campaigns.contacts DROP COLUMN skip_reason`);
    await q.query(`ALTER TABLE campaigns.campaigns DROP COLUMN calling_window`);
  }
}
