import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '@vap/messages';
import { ClaimLoop, tableOf } from '@vap/persistence';
import { CallbackUrls } from '../carriers/callback-urls';
import { CarrierUnanswered } from '../carriers/carrier-http';
import { SmsOutcomeUnknown, SmsRefused } from '../carriers/message-carrier';
import { MessageCarriers } from '../carriers/message-carriers';
import { Message } from './entities/message.entity';
import { MessageErrors } from './message-status';
import { MESSAGE_SENDS_CHANNEL, MessagesService } from './messages.service';

/** Looks for due retries and expired leases this often; a newly queued message wakes the loop at once. */
const POLL_MS = 1000;
/** Messages this replica hands to carriers at once. */
const CONCURRENCY = 4;
/** A claimed message is leased this long; a replica that dies mid-send leaves it to another after it. */
const LEASE_SECONDS = 60;
/** Attempts at a carrier that cannot be reached (nothing sent) before the message fails. */
export const MESSAGE_SEND_MAX_ATTEMPTS = 5;

interface ClaimedMessage {
  id: string;
  send_attempts: number;
}

/** The delay before the next attempt at an unreachable carrier: 2, 4, 8, 16 s. */
export function sendRetryDelaySecs(attempts: number): number {
  return Math.min(60, 2 ** attempts);
}

/**
 * Hands queued messages to their carrier: the messages table is the outbox (a message is stored queued in the
 * request's transaction; nothing accepted is lost to a crash, its lease expires and another replica sends it).
 * A carrier that takes it moves it to sent; a refusal (4xx) fails it with the carrier's code; a request that
 * may have reached the carrier without an answer (timeout, 5xx) fails it as carrier_unanswered, never sent
 * twice, and the carrier's own status callback may still settle it; a carrier that cannot be reached (nothing
 * sent) is tried again, up to MESSAGE_SEND_MAX_ATTEMPTS.
 */
@Injectable()
export class MessageSendWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MessageSendWorker.name);
  private readonly loop: ClaimLoop<ClaimedMessage>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: MessageCarriers,
    private readonly urls: CallbackUrls,
    private readonly messages: MessagesService,
  ) {
    this.loop = new ClaimLoop<ClaimedMessage>({
      label: 'message sends',
      channel: MESSAGE_SENDS_CHANNEL,
      pollMs: POLL_MS,
      concurrency: CONCURRENCY,
      claim: (limit) => this.claim(limit),
      run: (row) => this.run(row),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  private async claim(limit: number): Promise<ClaimedMessage[]> {
    const table = tableOf(this.dataSource, Message);
    const [rows] = (await this.dataSource.query(
      `UPDATE ${table} m
          SET send_attempts = m.send_attempts + 1, send_after = now() + make_interval(secs => $2)
        WHERE m.id IN (
          SELECT id FROM ${table}
           WHERE send_after IS NOT NULL AND send_after <= now()
           ORDER BY send_after
           LIMIT $1
           FOR UPDATE SKIP LOCKED)
        RETURNING m.id, m.send_attempts`,
      [limit, LEASE_SECONDS],
    )) as [ClaimedMessage[], number];
    return rows;
  }

  private async run(row: ClaimedMessage): Promise<void> {
    const message = await this.dataSource.getRepository(Message).findOneBy({ id: row.id });
    if (!message) return;
    if (message.status !== 'queued') return this.dequeue(message.id);
    let carrierMessageId: string;
    try {
      carrierMessageId = await this.carriers.get(message.provider).send(message.connectionId, {
        from: message.fromNumber,
        to: message.toNumber,
        body: message.body,
        statusCallbackUrl: this.urls.forMessage(message.provider, message.id),
      });
    } catch (err) {
      return this.failed(message, row.send_attempts, err);
    }
    await this.dataSource.transaction(async (em) => {
      const moved = await this.messages.transition(em, message.id, 'sent', { carrierMessageId });
      // A status callback came first (it moved the message on): the carrier's id is still kept.
      if (!moved)
        await em.query(
          `UPDATE ${tableOf(em, Message)} SET carrier_message_id = COALESCE(carrier_message_id, $2), send_after = NULL WHERE id = $1`,
          [message.id, carrierMessageId],
        );
    });
  }

  private async failed(message: Message, attempts: number, err: unknown): Promise<void> {
    const text = err instanceof Error ? err.message : String(err);
    if (err instanceof SmsRefused) return this.fail(message, err.code, text);
    if (err instanceof SmsOutcomeUnknown) return this.fail(message, MessageErrors.unanswered, text);
    if (err instanceof CarrierUnanswered) {
      if (err.maybeReceived) return this.fail(message, MessageErrors.unanswered, text);
      if (attempts >= MESSAGE_SEND_MAX_ATTEMPTS) return this.fail(message, MessageErrors.unreachable, text);
      return this.retry(message, attempts, text);
    }
    // No credentials, or no base URL for the carrier on this platform: nothing was sent, and waiting will not help.
    if (err instanceof AppError) return this.fail(message, MessageErrors.unavailable, text);
    // Anything else (the database, say) is tried again while attempts remain.
    if (attempts >= MESSAGE_SEND_MAX_ATTEMPTS) return this.fail(message, MessageErrors.unreachable, text);
    return this.retry(message, attempts, text);
  }

  private async fail(message: Message, errorCode: string, errorMessage: string): Promise<void> {
    this.logger.warn(`message ${message.id} failed on ${message.provider}: ${errorCode} (${errorMessage})`);
    await this.dataSource.transaction((em) =>
      this.messages.transition(em, message.id, 'failed', { errorCode, errorMessage }),
    );
  }

  private async retry(message: Message, attempts: number, reason: string): Promise<void> {
    this.logger.warn(`message ${message.id}: ${message.provider} unreachable (${reason}); trying again`);
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, Message)} SET send_after = now() + make_interval(secs => $2) WHERE id = $1 AND status = 'queued'`,
      [message.id, sendRetryDelaySecs(attempts)],
    );
  }

  private async dequeue(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, Message)} SET send_after = NULL WHERE id = $1`,
      [id],
    );
  }
}
