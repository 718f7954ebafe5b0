import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Projects become a public resource: a description, a soft delete (deleted agents keep pointing at their
 * project, so its row stays) and the index the list pages with.
 */
export class ProjectsApi1764900050000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE agents.projects
        ADD COLUMN description text,
        ADD COLUMN deleted_at timestamptz`);
    await q.query(
      `CREATE INDEX projects_partner_page_idx ON agents.projects (partner_id, created_at, id) WHERE deleted_at IS NULL`,
    );
    // Counting a project's agents (agent_count, the delete rule) reads this instead of the partner's agents.
    await q.query(
      `CREATE INDEX agents_project_live_idx ON agents.agents (project_id) WHERE deleted_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX agents.agents_project_live_idx`);
    await q.query(`DROP INDEX agents.projects_partner_page_idx`);
    await q.query(`ALTER TABLE agents.projects DROP COLUMN description, DROP COLUMN deleted_at`);
  }
}
