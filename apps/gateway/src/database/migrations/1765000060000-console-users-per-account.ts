import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A console user's email is unique within their account, no longer across every account: one person may be a
 * user of several accounts (each with its own password), and no account can learn whether an email belongs to
 * another's user, nor take an email so that another account could never add that person. Sign-in finds the
 * email's users by lower(email).
 */
export class ConsoleUsersPerAccount1765000060000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX gateway.partner_users_email`);
    await q.query(
      `CREATE UNIQUE INDEX partner_users_account_email ON gateway.partner_users (partner_id, lower(email))`,
    );
    await q.query(`CREATE INDEX partner_users_email ON gateway.partner_users (lower(email))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX gateway.partner_users_email`);
    await q.query(`DROP INDEX gateway.partner_users_account_email`);
    await q.query(`CREATE UNIQUE INDEX partner_users_email ON gateway.partner_users (lower(email))`);
  }
}
