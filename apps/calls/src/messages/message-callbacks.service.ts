import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MESSAGE_CARRIERS, MessageCarrier, smsSegments } from '@vap/api';
import {
  AppError,
  CarrierCallbackIngest,
  CarrierCallbackReply,
  DomainEvents,
  isUuid,
  MessageId,
} from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { callbackRequestOf } from '../carriers/carrier-adapter';
import { MessageCarriers } from '../carriers/message-carriers';
import { Connection } from '../telephony/connections/entities/connection.entity';
import { PhoneNumber } from '../telephony/phone-numbers/entities/phone-number.entity';
import { Message } from './entities/message.entity';
import { toMessageDto } from './message-dto';
import { MessagesService } from './messages.service';

const OK: CarrierCallbackReply = { status: 200, contentType: 'text/plain', body: '' };
/** The longest inbound body kept: carriers concatenate at most about ten segments. */
const INBOUND_BODY_MAX_CHARS = 1600;

const isMessageCarrier = (provider: string): provider is MessageCarrier =>
  (MESSAGE_CARRIERS as readonly string[]).includes(provider);

/**
 * The carriers' message webhooks, as the gateway forwards them: each is verified with the connection's
 * credentials before anything is read (403, as call callbacks). A delivery status callback names its message
 * in the URL and moves it on (message.status.updated); an inbound SMS to one of the account's numbers is
 * recorded once (a repeated webhook is answered the same) and announced as message.received.
 */
@Injectable()
export class MessageCallbacksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: MessageCarriers,
    private readonly messages: MessagesService,
    private readonly outbox: OutboxService,
  ) {}

  async status(input: CarrierCallbackIngest): Promise<CarrierCallbackReply> {
    const carrier = this.carriers.get(input.provider);
    const message = MessageId.is(input.callId)
      ? await this.dataSource.getRepository(Message).findOneBy({ id: input.callId })
      : null;
    if (!message || message.provider !== input.provider || message.direction !== 'outbound') {
      throw AppError.notFound('Message');
    }
    const report = await carrier.parseStatus(callbackRequestOf(input), message.connectionId);
    if (
      message.carrierMessageId &&
      report.carrierMessageId &&
      report.carrierMessageId !== message.carrierMessageId
    ) {
      throw AppError.validation([{ field: 'MessageSid', message: 'the callback names another message' }]);
    }
    if (!report.status) {
      // Nothing the record shows (queued, sending): its carrier id is still worth keeping.
      if (report.carrierMessageId) await this.adoptCarrierId(message.id, report.carrierMessageId);
      return OK;
    }
    const status = report.status;
    await this.dataSource.transaction(async (em) => {
      const moved = await this.messages.transition(em, message.id, status, {
        carrierMessageId: report.carrierMessageId,
        errorCode: report.errorCode,
        errorMessage: report.errorCode
          ? `${input.provider} reported ${status} (error ${report.errorCode})`
          : null,
      });
      if (!moved && report.carrierMessageId)
        await this.adoptCarrierId(message.id, report.carrierMessageId, em);
    });
    return OK;
  }

  async inbound(input: CarrierCallbackIngest): Promise<CarrierCallbackReply> {
    const carrier = this.carriers.get(input.provider);
    const connection = isUuid(input.callId)
      ? await this.dataSource.getRepository(Connection).findOneBy({ id: input.callId })
      : null;
    if (!connection || connection.provider !== input.provider || !isMessageCarrier(connection.provider)) {
      throw AppError.notFound('Connection');
    }
    const sms = await carrier.parseInbound(callbackRequestOf(input), connection.id);
    const number = await this.dataSource
      .getRepository(PhoneNumber)
      .findOneBy({ partnerId: connection.partnerId, number: sms.to });
    if (!number) throw AppError.notFound('Phone number');
    await this.record(connection, sms);
    return carrier.inboundReply;
  }

  /** The inbound message a carrier id names (the sandbox's simulated SMS), once recorded. */
  findInbound(partnerId: string, provider: string, carrierMessageId: string): Promise<Message | null> {
    return this.dataSource.getRepository(Message).findOneBy({
      partnerId,
      provider: provider as MessageCarrier,
      direction: 'inbound',
      carrierMessageId,
    });
  }

  private async record(
    connection: Connection,
    sms: { carrierMessageId: string; from: string; to: string; body: string },
  ): Promise<void> {
    const body = sms.body.slice(0, INBOUND_BODY_MAX_CHARS);
    await this.dataSource.transaction(async (em) => {
      const [inserted] = (await em.query(
        `INSERT INTO ${tableOf(em, Message)}
           (id, partner_id, direction, status, to_number, from_number, body, segments, provider, connection_id,
            carrier_message_id)
         VALUES ($1, $2, 'inbound', 'received', $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (partner_id, provider, direction, carrier_message_id) WHERE carrier_message_id IS NOT NULL
         DO NOTHING
         RETURNING id`,
        [
          MessageId.format(randomUUID()),
          connection.partnerId,
          sms.to,
          sms.from,
          body,
          smsSegments(body),
          connection.provider,
          connection.id,
          sms.carrierMessageId.slice(0, 200),
        ],
      )) as { id: string }[];
      // A carrier repeating its webhook finds the message recorded: one event only.
      if (!inserted) return;
      const message = await em.getRepository(Message).findOneByOrFail({ id: inserted.id });
      await this.outbox.record(em, DomainEvents.messageReceived, connection.partnerId, toMessageDto(message));
    });
  }

  private async adoptCarrierId(
    id: string,
    carrierMessageId: string,
    em = this.dataSource.manager,
  ): Promise<void> {
    await em.query(
      `UPDATE ${tableOf(em, Message)} SET carrier_message_id = $2 WHERE id = $1 AND carrier_message_id IS NULL`,
      [id, carrierMessageId.slice(0, 200)],
    );
  }
}
