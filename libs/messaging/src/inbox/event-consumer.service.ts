import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AckPolicy, ConsumerMessages, DeliverPolicy, JsMsg } from 'nats';
import { DataSource, EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { DomainEvent } from '@vap/contracts';
import { NatsConnectionService } from '../nats-connection.service';
import { EventStreamService } from '../events/event-stream.service';
import { decodeJson } from '../codec';
import { RequestContext } from '../request-context';
import { InboxRecord } from './inbox-record.entity';
import { DomainEventHandlerOptions, ON_DOMAIN_EVENT } from './on-domain-event.decorator';

type Handler = (event: DomainEvent, em: EntityManager) => Promise<void>;

const ACK_WAIT_NS = 30 * 1_000_000_000;

/**
 * Runs every @OnDomainEvent handler of the service as a durable JetStream pull consumer. A service that
 * was down resumes where its consumer stopped; a redelivered event finds its inbox row and is only acked.
 */
@Injectable()
export class EventConsumerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventConsumerService.name);
  private readonly running: { messages: ConsumerMessages; loop: Promise<void> }[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly dataSource: DataSource,
    private readonly nats: NatsConnectionService,
    private readonly stream: EventStreamService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const handlers = this.findHandlers();
    if (handlers.length === 0) return;
    await this.stream.ensure();
    for (const { options, handler } of handlers) await this.start(options, handler);
  }

  private findHandlers(): { options: DomainEventHandlerOptions; handler: Handler }[] {
    const found: { options: DomainEventHandlerOptions; handler: Handler }[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const proto = Object.getPrototypeOf(instance);
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const options = this.reflector.get<DomainEventHandlerOptions>(ON_DOMAIN_EVENT, proto[method]);
        if (options) found.push({ options, handler: (proto[method] as Handler).bind(instance) });
      }
    }
    return found;
  }

  consumerName(options: DomainEventHandlerOptions): string {
    return options.consumer ?? `${this.nats.options.serviceName}__${options.subject.replace(/[.>*]/g, '_')}`;
  }

  private async start(options: DomainEventHandlerOptions, handler: Handler): Promise<void> {
    const durable = this.consumerName(options);
    const jsm = await this.nats.jsm();
    const stream = this.nats.streamName;
    await jsm.consumers
      .info(stream, durable)
      .catch(() =>
        jsm.consumers.add(stream, {
          durable_name: durable,
          filter_subject: this.nats.subject(options.subject),
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          ack_wait: ACK_WAIT_NS,
          max_ack_pending: 256,
        }),
      );
    const consumer = await this.nats.js().consumers.get(stream, durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const loop = (async () => {
      for await (const msg of messages) await this.handle(durable, msg, handler);
    })().catch((err) => this.logger.error(`consumer ${durable} stopped: ${(err as Error).message}`));
    this.running.push({ messages, loop });
    this.logger.log(`consuming ${options.subject} as ${durable}`);
  }

  private async handle(consumer: string, msg: JsMsg, handler: Handler): Promise<void> {
    let event: DomainEvent;
    try {
      event = decodeJson<DomainEvent>(msg.data);
    } catch {
      this.logger.error(`consumer ${consumer}: undecodable message ${msg.seq} dropped`);
      msg.term();
      return;
    }
    await RequestContext.run({ requestId: event.requestId ?? randomUUID() }, async () => {
      try {
        await this.process(consumer, event, handler);
        msg.ack();
      } catch (err) {
        const delayMs = Math.min(60_000, 500 * 2 ** Math.min(msg.info.redeliveryCount, 7));
        this.logger.warn(`consumer ${consumer}: event ${event.id} failed (${(err as Error).message}); retry in ${delayMs} ms`);
        msg.nak(delayMs);
      }
    });
  }

  /** Applies the handler once per (consumer, event id); returns false when it had already been applied. */
  async process(consumer: string, event: DomainEvent, handler: Handler): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const inserted = await em
        .createQueryBuilder()
        .insert()
        .into(InboxRecord)
        .values({ consumer, eventId: event.id })
        .orIgnore()
        .returning(['event_id'])
        .execute();
      if ((inserted.raw as unknown[]).length === 0) return false;
      await handler(event, em);
      return true;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    for (const r of this.running) r.messages.stop();
    await Promise.all(this.running.map((r) => r.loop));
  }
}
