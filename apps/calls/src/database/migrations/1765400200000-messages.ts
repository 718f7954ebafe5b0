import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SMS of the account, sent and received. A queued outbound row is its own outbox entry (send_after: when the
 * send worker may claim it); carrier ids are unique per account, carrier and direction, so a carrier
 * repeating an inbound webhook records the message once.
 */
export class Messages1765400200000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.messages (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        status text NOT NULL,
        to_number text NOT NULL,
        from_number text NOT NULL,
        body text NOT NULL,
        segments integer NOT NULL,
        provider text NOT NULL,
        connection_id uuid NOT NULL,
        carrier_message_id text,
        error_code text,
        error_message text,
        call_id uuid,
        agent_id uuid,
        send_after timestamptz(3),
        send_attempts integer NOT NULL DEFAULT 0,
        sent_at timestamptz(3),
        delivered_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX messages_page ON calls.messages (partner_id, created_at, id)`);
    // The frequency caps count a number's outbound messages since a time.
    await q.query(
      `CREATE INDEX messages_to_number ON calls.messages (partner_id, to_number, created_at) WHERE direction = 'outbound'`,
    );
    await q.query(
      `CREATE INDEX messages_send_due ON calls.messages (send_after) WHERE send_after IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX messages_carrier_id ON calls.messages (partner_id, provider, direction, carrier_message_id)
         WHERE carrier_message_id IS NOT NULL`,
    );
    // An account's queued messages are bounded.
    await q.query(`CREATE INDEX messages_queued ON calls.messages (partner_id) WHERE status = 'queued'`);
    // send_sms is bounded per call.
    await q.query(`CREATE INDEX messages_call ON calls.messages (call_id) WHERE call_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.messages`);
  }
}
