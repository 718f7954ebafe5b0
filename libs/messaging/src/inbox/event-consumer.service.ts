import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AckPolicy, ConsumerMessages, DeliverPolicy, JsMsg, Subscription } from 'nats';
import { DataSource, EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { DomainEvent } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { NatsConnectionService } from '../nats-connection.service';
import { EventStreamService } from '../events/event-stream.service';
import { decodeJson } from '../codec';
import { RequestContext } from '../request-context';
import { eventsHandled, measureConsumerPendingWith } from '../messaging.metrics';
import { InboxRecord } from './inbox-record.entity';
import { DomainEventHandlerOptions, ON_DOMAIN_EVENT } from './on-domain-event.decorator';

type Handler = (event: DomainEvent, em: EntityManager) => Promise<void>;
/** What the consumer runs: the events of one transaction not handled before. */
type BatchHandler = (events: DomainEvent[], em: EntityManager) => Promise<void>;

/** One event after another, each in its own request context. */
function eachInTurn(handler: Handler): BatchHandler {
  return async (events, em) => {
    for (const event of events)
      await RequestContext.run({ requestId: event.requestId ?? randomUUID() }, () => handler(event, em));
  };
}

const ACK_WAIT_NS = 30 * 1_000_000_000;

/**
 * Runs every @OnDomainEvent handler of the service as a durable JetStream pull consumer. A service that
 * was down resumes where its consumer stopped; a redelivered event finds its inbox row and is only acked.
 */
@Injectable()
export class EventConsumerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EventConsumerService.name);
  private readonly running: { messages: ConsumerMessages; loop: Promise<void> }[] = [];
  private readonly durables: string[] = [];

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
    // Two handlers on one durable consumer would split the events between them, each seeing only some.
    const names = new Map<string, DomainEventHandlerOptions>();
    for (const { options } of handlers) {
      const name = this.consumerName(options);
      const other = names.get(name);
      if (other) {
        throw new Error(
          `@OnDomainEvent handlers of ${other.subject} and ${options.subject} share the consumer name "${name}"; give each its own { consumer }`,
        );
      }
      names.set(name, options);
    }
    await this.stream.ensure();
    for (const { options, handler } of handlers) await this.start(options, handler);
    measureConsumerPendingWith(() => this.pending());
  }

  /** Backlog per durable consumer, read from JetStream when metrics are scraped. */
  private async pending(): Promise<Record<string, number>> {
    const jsm = await this.nats.jsm();
    const counts: Record<string, number> = {};
    for (const durable of this.durables) {
      const info = await jsm.consumers.info(this.nats.streamName, durable).catch(() => undefined);
      if (info) counts[durable] = info.num_pending + info.num_ack_pending;
    }
    return counts;
  }

  private findHandlers(): { options: DomainEventHandlerOptions; handler: BatchHandler }[] {
    const found: { options: DomainEventHandlerOptions; handler: BatchHandler }[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const proto = Object.getPrototypeOf(instance);
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const options = this.reflector.get<DomainEventHandlerOptions>(ON_DOMAIN_EVENT, proto[method]);
        if (!options) continue;
        const bound = (proto[method] as Handler & BatchHandler).bind(instance);
        found.push({ options, handler: options.batched ? bound : eachInTurn(bound) });
      }
    }
    return found;
  }

  consumerName(options: DomainEventHandlerOptions): string {
    return options.consumer ?? `${this.nats.options.serviceName}__${options.subject.replace(/[.>*]/g, '_')}`;
  }

  private async start(options: DomainEventHandlerOptions, handler: BatchHandler): Promise<void> {
    const durable = this.consumerName(options);
    const jsm = await this.nats.jsm();
    const stream = this.nats.streamName;
    await jsm.consumers.info(stream, durable).catch(() =>
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
    const limit = Math.max(1, options.concurrency ?? 1);
    const batchSize = Math.max(1, options.batch ?? 1);
    const loop = (async () => {
      const inFlight = new Set<Promise<void>>();
      let pending: JsMsg[] = [];
      let flushTimer: NodeJS.Immediate | undefined;
      const flush = () => {
        if (flushTimer) clearImmediate(flushTimer);
        flushTimer = undefined;
        if (pending.length === 0) return;
        const batch = pending;
        pending = [];
        const job: Promise<void> = this.handle(durable, batch, handler, options.accepts).finally(() =>
          inFlight.delete(job),
        );
        inFlight.add(job);
      };
      // After stopFetching() the iterator still yields what the server had sent; handling it beats leaving it
      // unacked for the ack wait (a nak would send it straight back into the pull request just stopped).
      for await (const msg of messages) {
        pending.push(msg);
        // Messages already fetched arrive within the same turn of the event loop: a batch takes what is
        // there and waits for nothing more.
        if (pending.length >= batchSize) flush();
        else flushTimer ??= setImmediate(flush);
        while (inFlight.size >= limit) await Promise.race(inFlight);
      }
      flush();
      await Promise.all(inFlight);
    })().catch((err) => this.logger.error(`consumer ${durable} stopped: ${(err as Error).message}`));
    this.running.push({ messages, loop });
    this.durables.push(durable);
    this.logger.log(`consuming ${options.subject} as ${durable}`);
  }

  /**
   * Applies a batch of messages in one transaction; if that fails, each on its own, in order. Events the
   * consumer does not accept are only acked.
   */
  private async handle(
    consumer: string,
    msgs: JsMsg[],
    handler: BatchHandler,
    accepts?: (event: DomainEvent) => boolean,
  ): Promise<void> {
    const batch: { msg: JsMsg; event: DomainEvent }[] = [];
    for (const msg of msgs) {
      let event: DomainEvent;
      try {
        event = decodeJson<DomainEvent>(msg.data);
      } catch {
        this.logger.error(`consumer ${consumer}: undecodable message ${msg.seq} dropped`);
        settle(() => msg.term());
        continue;
      }
      if (accepts && !accepts(event)) {
        eventsHandled.inc({ consumer, outcome: 'skipped' });
        this.ack(consumer, msg, event);
      } else batch.push({ msg, event });
    }
    if (batch.length > 1) {
      const applied = await this.processBatch(
        consumer,
        batch.map((b) => b.event),
        handler,
      ).catch(() => undefined);
      if (applied) {
        for (const { msg, event } of batch) {
          eventsHandled.inc({ consumer, outcome: applied.has(event.id) ? 'applied' : 'duplicate' });
          this.ack(consumer, msg, event);
        }
        return;
      }
    }
    for (const { msg, event } of batch) await this.handleOne(consumer, msg, event, handler);
  }

  private async handleOne(
    consumer: string,
    msg: JsMsg,
    event: DomainEvent,
    handler: BatchHandler,
  ): Promise<void> {
    await RequestContext.run({ requestId: event.requestId ?? randomUUID() }, async () => {
      try {
        const applied = (await this.processBatch(consumer, [event], handler)).has(event.id);
        eventsHandled.inc({ consumer, outcome: applied ? 'applied' : 'duplicate' });
      } catch (err) {
        eventsHandled.inc({ consumer, outcome: 'failed' });
        const delayMs = Math.min(60_000, 500 * 2 ** Math.min(msg.info.redeliveryCount, 7));
        this.logger.warn(
          `consumer ${consumer}: event ${event.id} failed (${errorMessage(err)}); retry in ${delayMs} ms`,
        );
        settle(() => msg.nak(delayMs));
        return;
      }
      this.ack(consumer, msg, event);
    });
  }

  private ack(consumer: string, msg: JsMsg, event: DomainEvent): void {
    // A lost ack only means a redelivery, which the inbox absorbs.
    if (!settle(() => msg.ack())) this.logger.warn(`consumer ${consumer}: ack of event ${event.id} failed`);
  }

  /** Applies the handler once per (consumer, event id); returns false when it had already been applied. */
  async process(consumer: string, event: DomainEvent, handler: Handler): Promise<boolean> {
    return (await this.processBatch(consumer, [event], eachInTurn(handler))).has(event.id);
  }

  /**
   * Applies the handler to the events not yet in the consumer's inbox, in one transaction with their inbox
   * rows; returns the ids applied. An event twice in the batch is applied once.
   */
  async processBatch(consumer: string, events: DomainEvent[], handler: BatchHandler): Promise<Set<string>> {
    return this.dataSource.transaction(async (em) => {
      const inserted = (await em.query(
        `INSERT INTO ${tableOf(em, InboxRecord)} (consumer, event_id)
         SELECT $1, id FROM unnest($2::uuid[]) AS id
         ON CONFLICT DO NOTHING
         RETURNING event_id`,
        [consumer, events.map((e) => e.id)],
      )) as { event_id: string }[];
      const fresh = new Set(inserted.map((r) => r.event_id));
      const todo = new Map<string, DomainEvent>();
      for (const e of events) if (fresh.has(e.id) && !todo.has(e.id)) todo.set(e.id, e);
      if (todo.size) await handler([...todo.values()], em);
      return new Set(todo.keys());
    });
  }

  /**
   * Stops fetching and waits for the events being handled, before the NATS connection drains and the
   * DataSource closes (both happen in onApplicationShutdown), so that a handler in progress can commit
   * and ack instead of failing halfway.
   */
  async beforeApplicationShutdown(): Promise<void> {
    measureConsumerPendingWith(undefined);
    await Promise.all(this.running.map((r) => stopFetching(r.messages)));
    await Promise.all(this.running.map((r) => r.loop));
    this.running.length = 0;
  }
}

/** How long shutdown waits for the server to confirm a consumer's unsubscribe before it stops anyway. */
const DRAIN_WAIT_MS = 2000;

/**
 * Ends a consume() so that nothing the server already sent is lost. stop() alone unsubscribes locally: a
 * message still on the wire is then dropped and sits unacked for the ack wait (30 s) before anyone gets it.
 * Draining the pull's subscription unsubscribes at the server and flushes, so every message sent before the
 * server took the unsubscribe is still yielded (and handled, then acked) before the iterator ends. Only a
 * message the server was handing over at the very moment it took the unsubscribe can still miss it; that
 * one comes back after the ack wait. The subscription is the pull implementation's own field; without it,
 * or if the drain fails, this is stop().
 */
async function stopFetching(messages: ConsumerMessages): Promise<void> {
  const sub = (messages as Partial<{ sub: Subscription }>).sub;
  if (sub && !sub.isClosed()) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      sub.drain().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }
  messages.stop();
}

/** Acks, naks or terms; false when the connection no longer takes it. */
function settle(fn: () => void): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
