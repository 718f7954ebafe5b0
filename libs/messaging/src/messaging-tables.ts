import { QueryRunner } from 'typeorm';

/**
 * DDL of the outbox and inbox tables, shared by every service's first migration so that each schema
 * gets the same, tested shape.
 */
export async function createMessagingTables(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`
    CREATE TABLE "${schema}"."outbox" (
      "id" uuid PRIMARY KEY,
      "subject" text NOT NULL,
      "event" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "published_at" timestamptz
    )`);
  await queryRunner.query(
    `CREATE INDEX "outbox_unpublished_idx" ON "${schema}"."outbox" ("created_at") WHERE "published_at" IS NULL`,
  );
  await queryRunner.query(`
    CREATE TABLE "${schema}"."inbox" (
      "consumer" text NOT NULL,
      "event_id" uuid NOT NULL,
      "processed_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("consumer", "event_id")
    )`);
}

/** The index the inbox pruner deletes by (handled longer ago than the stream's retention). */
export async function createInboxPruneIndex(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(
    `CREATE INDEX IF NOT EXISTS "inbox_processed_at_idx" ON "${schema}"."inbox" ("processed_at")`,
  );
}

export async function dropInboxPruneIndex(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`DROP INDEX IF EXISTS "${schema}"."inbox_processed_at_idx"`);
}

export async function dropMessagingTables(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`DROP TABLE "${schema}"."inbox"`);
  await queryRunner.query(`DROP TABLE "${schema}"."outbox"`);
}
