import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The voice replica's attempt that claimed a stream token's nonce (one id per upgrade, the same on each retry):
 * a retry of an attach whose answer was lost (a calls replica that died or answered after the voice service's
 * timeout) is answered again instead of being refused as a second use of the token. Claims of replicas that
 * send no attempt id keep none.
 */
export class MediaStreamClaimAttempt1765600300000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.media_stream_claims ADD COLUMN attempt_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.media_stream_claims DROP COLUMN attempt_id`);
  }
}
