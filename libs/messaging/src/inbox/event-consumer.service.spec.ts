// Durable, idempotent event consumers against real Postgres and NATS JetStream: a redelivered event has
// no second effect, a failing handler's writes roll back and the event comes again, and a service that
// was down gets what was published meanwhile.
import { Injectable, INestApplicationContext, Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner, NestFactory, Reflector } from '@nestjs/core';
import { DataSource, EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { DomainEvent } from '@vap/messages';
import { EventConsumerService } from './event-consumer.service';
import { OnDomainEvent, OnDomainEventBatch } from './on-domain-event.decorator';
import { OutboxService } from '../outbox/outbox.service';
import { NatsConnectionService } from '../nats-connection.service';
import { EventStreamService } from '../events/event-stream.service';
import { RequestContext } from '../request-context';
import { encodeJson } from '../codec';
import {
  MessagingTestKit,
  sleep,
  TEST_SCHEMA,
  TestEffect,
  TestEvents,
  waitFor,
} from '../testing/messaging-test-kit';

jest.setTimeout(30_000);

const ORDER_PLACED = 'events.order.placed';
const FLAKY = 'events.flaky.happened';
const SLOW = 'events.slow.happened';
const PARALLEL = 'events.parallel.happened';
const BATCHED = 'events.batched.happened';

interface Call {
  consumer: string;
  eventId: string;
  requestId: string | undefined;
}

/** What the handlers did, kept outside the Nest contexts so that it survives a restart. */
class Probe {
  readonly calls: Call[] = [];
  /** Event id → how many more times its handler should fail (after writing). */
  readonly failures = new Map<string, number>();
  /** Handlers of the concurrent consumer running now, and the most seen at once. */
  active = 0;
  maxActive = 0;
  /** The events each call of the batch handler got, and the transaction it ran in. */
  readonly batches: { ids: string[]; txid: string }[] = [];

  callsOf(consumer: string, eventId?: string): Call[] {
    return this.calls.filter((c) => c.consumer === consumer && (!eventId || c.eventId === eventId));
  }
}

@Injectable()
class OrderHandlers {
  constructor(private readonly probe: Probe) {}

  @OnDomainEvent(ORDER_PLACED)
  async onPlaced(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.apply('orders', event, em);
  }

  @OnDomainEvent(ORDER_PLACED, { consumer: 'order_audit' })
  async audit(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.apply('order_audit', event, em);
  }

  @OnDomainEvent(FLAKY, { consumer: 'flaky' })
  async onFlaky(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.apply('flaky', event, em);
  }

  @OnDomainEvent(SLOW, { consumer: 'slow' })
  async onSlow(event: DomainEvent, em: EntityManager): Promise<void> {
    this.probe.calls.push({ consumer: 'slow', eventId: event.id, requestId: RequestContext.requestId() });
    await sleep(200);
    await em.insert(TestEffect, { kind: 'slow', ref: event.id });
  }

  @OnDomainEvent(PARALLEL, { consumer: 'parallel', concurrency: 3 })
  async onParallel(event: DomainEvent, em: EntityManager): Promise<void> {
    this.probe.active += 1;
    this.probe.maxActive = Math.max(this.probe.maxActive, this.probe.active);
    try {
      await sleep(150);
      await em.insert(TestEffect, { kind: 'parallel', ref: event.id });
    } finally {
      this.probe.active -= 1;
    }
  }

  @OnDomainEventBatch(BATCHED, { consumer: 'batched', batch: 8 })
  async onBatch(events: DomainEvent[], em: EntityManager): Promise<void> {
    const [{ txid }] = (await em.query('SELECT txid_current()::text AS txid')) as { txid: string }[];
    this.probe.batches.push({ ids: events.map((e) => e.id), txid });
    for (const e of events) await em.insert(TestEffect, { kind: 'batched', ref: e.id });
    const failing = events.find((e) => (this.probe.failures.get(e.id) ?? 0) > 0);
    if (failing) {
      this.probe.failures.set(failing.id, this.probe.failures.get(failing.id)! - 1);
      throw new Error('batch failed on purpose');
    }
  }

  private async apply(consumer: string, event: DomainEvent, em: EntityManager): Promise<void> {
    this.probe.calls.push({ consumer, eventId: event.id, requestId: RequestContext.requestId() });
    await em.insert(TestEffect, { kind: consumer, ref: event.id });
    const left = this.probe.failures.get(event.id) ?? 0;
    if (left > 0) {
      this.probe.failures.set(event.id, left - 1);
      throw new Error('handler failed on purpose');
    }
  }
}

/** A second handler of ORDER_PLACED that forgot to name its consumer. */
@Injectable()
class DuplicateHandler {
  @OnDomainEvent(ORDER_PLACED)
  async onPlaced(): Promise<void> {
    // never runs: the service refuses to start
  }
}

@Module({})
class DiscoveryOnlyModule {}

const LISTENER = 'listener';
const ORDERS_DURABLE = `${LISTENER}__events_order_placed`;

describe('event consumers (Postgres + JetStream)', () => {
  let kit: MessagingTestKit;
  const probe = new Probe();

  beforeAll(async () => {
    kit = await MessagingTestKit.create('vap_msg_inbox');
  });

  afterAll(async () => {
    await kit?.dispose();
  });

  const startListener = () =>
    kit.startApp({ serviceName: LISTENER, providers: [{ provide: Probe, useValue: probe }, OrderHandlers] });

  function domainEvent<T>(subject: string, data: T, requestId = `req-${randomUUID()}`): DomainEvent<T> {
    return {
      id: randomUUID(),
      subject,
      partnerId: 'partner-1',
      occurredAt: new Date().toISOString(),
      requestId,
      data,
    };
  }

  /** Publishes straight to the stream, as a relay would; msgId defaults to the event id. */
  async function publish(event: DomainEvent, msgId = event.id): Promise<number> {
    const ack = await kit.nc
      .jetstream()
      .publish(kit.subject(event.subject), encodeJson(event), { msgID: msgId });
    expect(ack.duplicate).toBe(false);
    return ack.seq;
  }

  describe('with the service running', () => {
    let app: INestApplicationContext;

    beforeAll(async () => {
      app = await startListener();
    });

    afterAll(async () => {
      await kit.stopApp(app);
    });

    it('names durable consumers after the service and subject, filtered on the prefixed subject', async () => {
      expect(app.get(EventConsumerService).consumerName({ subject: ORDER_PLACED })).toBe(ORDERS_DURABLE);
      const info = await kit.consumerInfo(ORDERS_DURABLE);
      expect(info.config.filter_subject).toBe(kit.subject(ORDER_PLACED));
      expect(info.config.durable_name).toBe(ORDERS_DURABLE);
      expect((await kit.consumerInfo('order_audit')).config.filter_subject).toBe(kit.subject(ORDER_PLACED));
    });

    it('hands an event to every consumer of its subject once, in the request context of the event', async () => {
      const event = domainEvent(ORDER_PLACED, { order: 1 }, 'req-order-1');
      await publish(event);
      await kit.waitConsumerDrained(ORDERS_DURABLE);
      await kit.waitConsumerDrained('order_audit');

      expect(probe.callsOf('orders', event.id)).toEqual([
        { consumer: 'orders', eventId: event.id, requestId: 'req-order-1' },
      ]);
      expect(probe.callsOf('order_audit', event.id)).toHaveLength(1);
      expect(probe.callsOf('flaky', event.id)).toHaveLength(0);
      expect(await kit.effects('orders')).toEqual([event.id]);
      expect(await kit.effects('order_audit')).toEqual([event.id]);
    });

    it('applies an event delivered twice (same event id, another message id) only once', async () => {
      const event = domainEvent(ORDER_PLACED, { order: 2 });
      await publish(event);
      await publish(event, `${event.id}-again`);
      await kit.waitConsumerDrained(ORDERS_DURABLE);
      await kit.waitConsumerDrained('order_audit');

      expect(await kit.streamCount(ORDER_PLACED)).toBe(3);
      expect(probe.callsOf('orders', event.id)).toHaveLength(1);
      expect(probe.callsOf('order_audit', event.id)).toHaveLength(1);
      expect((await kit.effects('orders')).filter((ref) => ref === event.id)).toHaveLength(1);
    });

    it('only acks a delivery of an event its inbox already holds (handled before, ack lost)', async () => {
      const event = domainEvent(FLAKY, { step: 'already handled' });
      await kit.query(`INSERT INTO "${TEST_SCHEMA}"."inbox" (consumer, event_id) VALUES ($1, $2)`, [
        'flaky',
        event.id,
      ]);
      await publish(event);
      await kit.waitConsumerDrained('flaky');

      expect(probe.callsOf('flaky', event.id)).toHaveLength(0);
      expect(await kit.effects('flaky')).not.toContain(event.id);
    });

    it('rolls back a failing handler, gets the event redelivered by NATS, and applies it once', async () => {
      const event = domainEvent(FLAKY, { step: 'fails once' });
      probe.failures.set(event.id, 1);
      await publish(event);

      await waitFor('the retry', () => probe.callsOf('flaky', event.id).length >= 2);
      await kit.waitConsumerDrained('flaky');

      expect(probe.callsOf('flaky', event.id)).toHaveLength(2);
      // The first attempt's write was rolled back together with its inbox row, so the retry could apply.
      expect((await kit.effects('flaky')).filter((ref) => ref === event.id)).toHaveLength(1);
      const inbox = await kit.query(
        `SELECT 1 FROM "${TEST_SCHEMA}"."inbox" WHERE consumer = 'flaky' AND event_id = $1`,
        [event.id],
      );
      expect(inbox).toHaveLength(1);
    });

    it('runs up to `concurrency` events of one consumer at once, each applied once', async () => {
      const events = Array.from({ length: 9 }, (_, n) => domainEvent(PARALLEL, { n }));
      for (const e of events) await publish(e);
      await waitFor('the parallel effects', async () => (await kit.effects('parallel')).length === 9);
      await kit.waitConsumerDrained('parallel');
      expect((await kit.effects('parallel')).sort()).toEqual(events.map((e) => e.id).sort());
      expect(probe.maxActive).toBe(3);
    });

    it('process() applies a handler once per consumer and event id, even when called concurrently', async () => {
      const consumers = app.get(EventConsumerService);
      const event = domainEvent('events.direct.called', {});
      let runs = 0;
      const handler = async (e: DomainEvent, em: EntityManager) => {
        runs += 1;
        await em.insert(TestEffect, { kind: 'direct', ref: e.id });
      };

      expect(await consumers.process('direct', event, handler)).toBe(true);
      expect(await consumers.process('direct', event, handler)).toBe(false);
      const concurrent = domainEvent('events.direct.called', {});
      const results = await Promise.all(
        [1, 2, 3].map(() => consumers.process('direct', concurrent, handler)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      // Another consumer of the same event has its own inbox entry.
      expect(await consumers.process('direct_other', event, handler)).toBe(true);

      expect(runs).toBe(3);
      expect((await kit.effects('direct')).sort()).toEqual([event.id, event.id, concurrent.id].sort());
    });

    it('process() leaves no inbox row when the handler throws', async () => {
      const consumers = app.get(EventConsumerService);
      const event = domainEvent('events.direct.called', {});
      const failing = async (e: DomainEvent, em: EntityManager) => {
        await em.insert(TestEffect, { kind: 'direct_failing', ref: e.id });
        throw new Error('nope');
      };
      await expect(consumers.process('direct_failing', event, failing)).rejects.toThrow('nope');
      expect(await kit.effects('direct_failing')).toEqual([]);
      expect(await consumers.process('direct_failing', event, async () => undefined)).toBe(true);
    });
  });

  it('delivers to a service that was down every event published meanwhile, once', async () => {
    // The service has run once, so its durable consumer exists; then it goes down.
    await kit.stopApp(await startListener());
    const before = probe.callsOf('orders').length;
    const producer = await kit.startApp({ serviceName: 'shop' });
    const outbox = producer.get<OutboxService<TestEvents>>(OutboxService);
    const events = await producer.get(DataSource).transaction(async (em) => {
      const out: DomainEvent[] = [];
      for (let n = 0; n < 5; n++) out.push(await outbox.record(em, ORDER_PLACED, 'partner-1', { n }));
      return out;
    });
    const ids = events.map((e) => e.id).sort();

    await waitFor(
      'the events to wait in the durable consumer',
      async () => (await kit.consumerInfo(ORDERS_DURABLE)).num_pending === 5,
    );
    expect(probe.callsOf('orders')).toHaveLength(before);

    const app = await startListener();
    await kit.waitConsumerDrained(ORDERS_DURABLE);
    await kit.waitConsumerDrained('order_audit');

    expect(
      probe.calls
        .filter((c) => c.consumer === 'orders' && ids.includes(c.eventId))
        .map((c) => c.eventId)
        .sort(),
    ).toEqual(ids);
    expect(
      probe.calls
        .filter((c) => c.consumer === 'order_audit' && ids.includes(c.eventId))
        .map((c) => c.eventId)
        .sort(),
    ).toEqual(ids);
    expect((await kit.effects('orders')).filter((ref) => ids.includes(ref)).sort()).toEqual(ids);
    await kit.stopApp(app);
    await kit.stopApp(producer);
  });

  it('applies events waiting together in batches, each batch in one transaction, each event once', async () => {
    await kit.stopApp(await startListener());
    probe.batches.length = 0;
    const events = Array.from({ length: 20 }, (_, n) => domainEvent(BATCHED, { n }));
    for (const e of events) await publish(e);
    // One event twice (another message id): the inbox takes it once, even within one batch.
    await publish(events[3], `${events[3].id}-again`);

    const app = await startListener();
    await waitFor('the batched effects', async () => (await kit.effects('batched')).length === 20);
    await kit.waitConsumerDrained('batched');

    expect((await kit.effects('batched')).sort()).toEqual(events.map((e) => e.id).sort());
    const handled = probe.batches.flatMap((b) => b.ids);
    expect(handled.sort()).toEqual(events.map((e) => e.id).sort());
    expect(Math.max(...probe.batches.map((b) => b.ids.length))).toBeGreaterThan(1);
    expect(Math.max(...probe.batches.map((b) => b.ids.length))).toBeLessThanOrEqual(8);
    expect(new Set(probe.batches.map((b) => b.txid)).size).toBe(probe.batches.length);
    await kit.stopApp(app);
  });

  it('applies the other events of a failed batch on their own; the failing one comes again', async () => {
    await kit.stopApp(await startListener());
    probe.batches.length = 0;
    const events = Array.from({ length: 6 }, (_, n) => domainEvent(BATCHED, { n }));
    probe.failures.set(events[2].id, 2);
    for (const e of events) await publish(e);

    const app = await startListener();
    await waitFor('every event', async () => {
      const done = await kit.effects('batched');
      return events.every((e) => done.includes(e.id));
    });
    await kit.waitConsumerDrained('batched');

    // The failed batch's writes rolled back: each event's effect is there once.
    const effects = (await kit.effects('batched')).filter((ref) => events.some((e) => e.id === ref));
    expect(effects.sort()).toEqual(events.map((e) => e.id).sort());
    // After the failed batch, each of its events went on alone; the failing one failed again, then came back.
    const alone = probe.batches.filter((b) => b.ids.length === 1).map((b) => b.ids[0]);
    expect(alone.filter((id) => id === events[2].id).length).toBeGreaterThanOrEqual(2);
    expect(probe.batches[0].ids.length).toBeGreaterThan(1);
    await kit.stopApp(app);
  });

  it('lets handlers in progress commit and ack at shutdown; the rest comes after the restart, once', async () => {
    const app = await startListener();
    const events = [domainEvent(SLOW, { n: 1 }), domainEvent(SLOW, { n: 2 }), domainEvent(SLOW, { n: 3 })];
    for (const e of events) await publish(e);
    await waitFor('the first handler to start', () => probe.callsOf('slow').length === 1);
    // The server has sent all three to the listener: one it handed over only after the listener's unsubscribe
    // would go to no one and wait out the ack wait (30 s), a race no client can close (see stopFetching).
    await waitFor(
      'every event sent to the listener',
      async () => (await kit.consumerInfo('slow')).delivered.consumer_seq >= events.length,
    );
    await kit.stopApp(app);

    // Every handler that started committed (none failed halfway) and its event was acked.
    const started = probe.callsOf('slow').map((c) => c.eventId);
    expect(started.length).toBeGreaterThanOrEqual(1);
    expect(await kit.effects('slow')).toEqual(started);
    // Acks leave on the stopped app's connection; the server may answer this one first. The ack wait is 30 s,
    // so acks that land within a few seconds were sent at shutdown, not left for redelivery.
    await waitFor(
      'the acks sent at shutdown',
      async () => (await kit.consumerInfo('slow')).num_ack_pending === 0,
      {
        timeoutMs: 5000,
      },
    );

    const again = await startListener();
    await waitFor('the other events after restart', async () => (await kit.effects('slow')).length === 3, {
      timeoutMs: 15_000,
    });
    await kit.waitConsumerDrained('slow');
    expect(probe.callsOf('slow').map((c) => c.eventId)).toEqual(events.map((e) => e.id));
    expect(await kit.effects('slow')).toEqual(events.map((e) => e.id));
    await kit.stopApp(again);
  });

  it('handles and acks at shutdown the events already on the wire to it, rather than dropping them', async () => {
    const app = await startListener();
    const events = Array.from({ length: 5 }, (_, n) => domainEvent(ORDER_PLACED, { wire: n }));
    const published = Promise.all(events.map((e) => publish(e)));
    await null; // the publishes leave in a microtask
    // Nothing is read from any socket while this loop holds the event loop: the server stores the events
    // and sends them to the listener's pull, where they wait unread as its shutdown begins.
    const until = Date.now() + 300;
    while (Date.now() < until);
    await kit.stopApp(app);
    await published;

    // Each event reached the stopped app, was handled and acked; a dropped one would be pending for the
    // whole ack wait (30 s) and come back only then.
    for (const durable of [ORDERS_DURABLE, 'order_audit']) {
      await waitFor(
        `${durable} to have nothing in flight`,
        async () => (await kit.consumerInfo(durable)).num_ack_pending === 0,
        { timeoutMs: 5000 },
      );
    }
    const ids = events.map((e) => e.id).sort();
    expect((await kit.effects('orders')).filter((ref) => ids.includes(ref)).sort()).toEqual(ids);
    expect((await kit.effects('order_audit')).filter((ref) => ids.includes(ref)).sort()).toEqual(ids);
  });

  it('refuses to start two handlers that would share one durable consumer', async () => {
    // Only discovery is needed: the check runs before anything touches NATS or the database.
    const ctx = await NestFactory.createApplicationContext(
      {
        module: DiscoveryOnlyModule,
        imports: [DiscoveryModule],
        providers: [{ provide: Probe, useValue: probe }, OrderHandlers, DuplicateHandler],
      },
      { logger: false },
    );
    try {
      const consumers = new EventConsumerService(
        ctx.get(DiscoveryService),
        ctx.get(MetadataScanner),
        ctx.get(Reflector),
        undefined as unknown as DataSource,
        new NatsConnectionService({ serviceName: LISTENER, url: 'nats://unused' }),
        undefined as unknown as EventStreamService,
      );
      await expect(consumers.onApplicationBootstrap()).rejects.toThrow(
        /share the consumer name "listener__events_order_placed"/,
      );
    } finally {
      await ctx.close();
    }
  });
});
