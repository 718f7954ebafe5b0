import { MigrationInterface, QueryRunner } from 'typeorm';
import { createInboxPruneIndex, dropInboxPruneIndex } from '@vap/messaging';

export class InboxPruneIndex1763900010000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await createInboxPruneIndex(queryRunner, 'campaigns');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropInboxPruneIndex(queryRunner, 'campaigns');
  }
}
