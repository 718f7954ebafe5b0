import { MigrationInterface, QueryRunner } from 'typeorm';
import { createMessagingTables, dropMessagingTables } from '@vap/messaging';

export class MessagingTables1763800000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, 'gateway');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropMessagingTables(queryRunner, 'gateway');
  }
}
