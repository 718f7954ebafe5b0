import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  ListMessagesQueryDto,
  MessageDto,
  MessageListDto,
  MessageStatus,
  SendMessageDto,
  smsSegments,
} from '@vap/api';
import { AppError, DomainEvents, ErrorCode, MessageId } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { keysetPage, tableOf, wakeAfterCommit } from '@vap/persistence';
import { lockDialTarget } from '../partners/partner-lock';
import { ContactPolicy, PolicyStop } from '../telephony/contact-policy/contact-policy';
import { Message } from './entities/message.entity';
import { toMessageDto } from './message-dto';
import { MessageSenderResolver } from './message-sender';
import { MessageErrors, reachableFrom } from './message-status';
import { SmsPolicyService } from './sms-policy.service';

/** The channel a queued message wakes the send worker on (in this process; other replicas poll). */
export const MESSAGE_SENDS_CHANNEL = 'calls_message_sends';

/** Messages of an account waiting for their carrier at once: a runaway sender meets LIMIT_REACHED, not a backlog. */
export const MAX_QUEUED_MESSAGES_PER_ACCOUNT = 1000;

/** A message an agent sends during a call (send_sms): the call and its agent. */
export interface CallOrigin {
  callId: string;
  agentId: string;
}

/** What a status change records besides the status. */
export interface StatusChange {
  carrierMessageId?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
}

/**
 * POST /messages and the message history. A message passes the contact policy as a single call does (the
 * do-not-call list, the calling window when it applies to single calls, the frequency caps counted among the
 * number's messages); a refusal is logged in the decisions (source message) and answered with the rule's code.
 * Before it, the SMS policy (SmsPolicyService) refuses premium, fraud-flagged and unlisted destinations, and
 * the daily and per-call caps are counted in the transaction that stores the message. An accepted message is
 * stored queued, its row the outbox entry the send worker hands to the carrier.
 */
@Injectable()
export class MessagesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly senders: MessageSenderResolver,
    private readonly policy: ContactPolicy,
    private readonly smsPolicy: SmsPolicyService,
  ) {}

  async send(
    partnerId: string,
    input: SendMessageDto,
    origin: CallOrigin | null = null,
  ): Promise<MessageDto> {
    const sender = await this.senders.resolve(partnerId, input);
    await this.smsPolicy.assertDestination(partnerId, input.to);
    const permit = await this.policy.check(partnerId, input.to, null, 'message');
    const id = MessageId.format(randomUUID());
    const stop = await this.dataSource.transaction(async (em): Promise<PolicyStop | null> => {
      await lockDialTarget(em, partnerId, input.to, null);
      const stopped = await this.policy.admissionStop(em, permit);
      if (stopped) return stopped;
      await this.assertQueueRoom(em, partnerId);
      await this.smsPolicy.assertUnderCaps(em, partnerId, origin?.callId ?? null);
      await em.insert(Message, {
        id,
        partnerId,
        direction: 'outbound',
        status: 'queued',
        toNumber: input.to,
        fromNumber: sender.from,
        body: input.body,
        segments: smsSegments(input.body),
        provider: sender.provider,
        connectionId: sender.connectionId,
        carrierMessageId: null,
        errorCode: null,
        errorMessage: null,
        callId: origin?.callId ?? null,
        agentId: origin?.agentId ?? null,
        sendAfter: new Date(),
        sendAttempts: 0,
        sentAt: null,
        deliveredAt: null,
      });
      wakeAfterCommit(em, MESSAGE_SENDS_CHANNEL);
      return null;
    });
    if (stop) return this.policy.stop(stop);
    return this.get(partnerId, id);
  }

  async get(partnerId: string, id: string): Promise<MessageDto> {
    const message = await this.dataSource.getRepository(Message).findOneBy({ id, partnerId });
    if (!message) throw AppError.notFound('Message');
    return toMessageDto(message);
  }

  async list(partnerId: string, query: ListMessagesQueryDto): Promise<MessageListDto> {
    const qb = this.dataSource
      .getRepository(Message)
      .createQueryBuilder('m')
      .where('m.partner_id = :partnerId', { partnerId });
    if (query.to) qb.andWhere('m.to_number = :to', { to: query.to });
    if (query.from) qb.andWhere('m.from_number = :from', { from: query.from });
    if (query.direction) qb.andWhere('m.direction = :direction', { direction: query.direction });
    if (query.status) qb.andWhere('m.status = :status', { status: query.status });
    const page = await keysetPage(qb, query, { idKind: 'prefixed', direction: 'DESC' });
    return { messages: page.rows.map(toMessageDto), next_cursor: page.nextCursor };
  }

  /**
   * Moves a message to `next` when its status allows it (reachableFrom, or a failure whose outcome the carrier
   * had left unknown) and records message.status.updated with it. Null when the status did not allow it.
   */
  async transition(
    em: EntityManager,
    id: string,
    next: MessageStatus,
    change: StatusChange,
  ): Promise<Message | null> {
    const [rows] = (await em.query(
      `UPDATE ${tableOf(em, Message)}
          SET status = $2,
              carrier_message_id = COALESCE(carrier_message_id, $3),
              error_code = CASE WHEN $2 IN ('failed', 'undelivered') THEN $4 ELSE NULL END,
              error_message = CASE WHEN $2 IN ('failed', 'undelivered') THEN $5 ELSE NULL END,
              sent_at = CASE WHEN $2 IN ('sent', 'delivered', 'undelivered') THEN COALESCE(sent_at, now()) ELSE sent_at END,
              delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END,
              send_after = NULL,
              updated_at = now()
        WHERE id = $1
          AND (status = ANY($6) OR (status = 'failed' AND error_code = $7))
        RETURNING id`,
      [
        id,
        next,
        change.carrierMessageId ?? null,
        change.errorCode ?? null,
        change.errorMessage?.slice(0, 1000) ?? null,
        reachableFrom(next),
        MessageErrors.unanswered,
      ],
    )) as [{ id: string }[], number];
    if (rows.length === 0) return null;
    const message = await em.getRepository(Message).findOneByOrFail({ id });
    await this.outbox.record(em, DomainEvents.messageStatusUpdated, message.partnerId, toMessageDto(message));
    return message;
  }

  private async assertQueueRoom(em: EntityManager, partnerId: string): Promise<void> {
    const [{ count }] = (await em.query(
      `SELECT count(*)::int AS count FROM (
         SELECT 1 FROM ${tableOf(em, Message)} WHERE partner_id = $1 AND status = 'queued' LIMIT $2) q`,
      [partnerId, MAX_QUEUED_MESSAGES_PER_ACCOUNT],
    )) as { count: number }[];
    if (count >= MAX_QUEUED_MESSAGES_PER_ACCOUNT) {
      throw new AppError(
        ErrorCode.LIMIT_REACHED,
        `${count} messages of this account are waiting for their carrier, the most at once; retry when some have gone`,
      );
    }
  }
}
