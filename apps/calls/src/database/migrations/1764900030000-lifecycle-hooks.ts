import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lifecycle hooks: the partner's pre-call and post-call URLs (one per event for the account and one per
 * event for each agent), the queue of post-call hook requests, and each session's post-call hook result.
 */
export class LifecycleHooks1764900030000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.lifecycle_hooks (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        event text NOT NULL CHECK (event IN ('pre_call', 'post_call')),
        agent_id uuid,
        url text NOT NULL,
        secret_sealed text NOT NULL,
        timeout_ms integer NOT NULL,
        failure_action text CHECK (failure_action IN ('continue', 'block')),
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // One hook per event and scope; the account default (agent_id null) counts as one scope.
    await q.query(`
      CREATE UNIQUE INDEX lifecycle_hooks_scope_key ON calls.lifecycle_hooks
        (partner_id, event, COALESCE(agent_id, '00000000-0000-0000-0000-000000000000'::uuid))`);
    await q.query(`
      CREATE TABLE calls.post_call_hook_jobs (
        call_id uuid PRIMARY KEY REFERENCES calls.calls(id),
        hook_id text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        run_after timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX post_call_hook_jobs_due_idx ON calls.post_call_hook_jobs (run_after) WHERE status = 'queued'`,
    );
    await q.query(`ALTER TABLE calls.call_sessions ADD COLUMN post_call_hook jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN post_call_hook`);
    await q.query(`DROP TABLE calls.post_call_hook_jobs`);
    await q.query(`DROP TABLE calls.lifecycle_hooks`);
  }
}
