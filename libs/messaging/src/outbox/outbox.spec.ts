// Transactional outbox against real Postgres and NATS JetStream: what commits is published (once, with
// Nats-Msg-Id = event id), what rolls back never is, and nothing committed is lost to a crash.
import { randomUUID } from 'node:crypto';
import { Injectable, INestApplicationContext } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { headers as natsHeaders } from 'nats';
import { DomainEvent, MessageHeaders } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { OutboxService } from './outbox.service';
import { OutboxRelayService } from './outbox-relay.service';
import { OnDomainEvent } from '../inbox/on-domain-event.decorator';
import { RequestContext } from '../request-context';
import { encodeJson } from '../codec';
import {
  MessagingTestKit,
  TEST_SCHEMA,
  TestEffect,
  TestEvents,
  waitFor,
} from '../testing/messaging-test-kit';

jest.setTimeout(30_000);

const WIDGET_CREATED = 'events.widget.created';
const CRASH_SUBJECT = 'events.crash.recorded';
const RACE_SUBJECT = 'events.race.recorded';
const CLOSING_SUBJECT = 'events.closing.recorded';

/** Consumes the crash scenario's events; every call is remembered so that a second delivery would show. */
@Injectable()
class CrashProbe {
  readonly seen: { eventId: string; requestId: string | undefined }[] = [];

  @OnDomainEvent(CRASH_SUBJECT, { consumer: 'crash_probe' })
  async onRecorded(event: DomainEvent<{ n: number }>, em: EntityManager): Promise<void> {
    this.seen.push({ eventId: event.id, requestId: RequestContext.requestId() });
    await em.insert(TestEffect, { kind: 'crash_probe', ref: event.id });
  }
}

interface OutboxRow {
  id: string;
  published_at: Date | null;
}

describe('outbox (Postgres + JetStream)', () => {
  let kit: MessagingTestKit;

  beforeAll(async () => {
    kit = await MessagingTestKit.create('vap_msg_outbox');
  });

  afterAll(async () => {
    await kit?.dispose();
  });

  const outboxRows = (subject: string) =>
    kit.query<OutboxRow>(`SELECT id, published_at FROM "${TEST_SCHEMA}"."outbox" WHERE subject = $1`, [
      subject,
    ]);

  const unpublished = async (subject: string) =>
    (await outboxRows(subject)).filter((r) => r.published_at === null);

  /** Writes events the way a service does, but from a process whose relay is not running. */
  async function recordWithoutRelay(
    ds: DataSource,
    subject: string,
    count: number,
    requestId: string,
  ): Promise<DomainEvent[]> {
    const outbox = new OutboxService<TestEvents>();
    const events: DomainEvent[] = [];
    for (let n = 0; n < count; n++) {
      const event = await RequestContext.run({ requestId }, () =>
        ds.transaction(async (em) => {
          await em.insert(TestEffect, { kind: subject, ref: String(n) });
          return outbox.record(em, subject, 'partner-1', { n });
        }),
      );
      events.push(event);
    }
    return events;
  }

  describe('with a running relay', () => {
    let app: INestApplicationContext;
    let dataSource: DataSource;
    let outbox: OutboxService<TestEvents>;

    beforeAll(async () => {
      app = await kit.startApp({ serviceName: 'producer' });
      dataSource = app.get(DataSource);
      outbox = app.get<OutboxService<TestEvents>>(OutboxService);
    });

    afterAll(async () => {
      await kit.stopApp(app);
    });

    it('publishes an event recorded with a committed state change, with Nats-Msg-Id = event id', async () => {
      const event = await RequestContext.run({ requestId: 'req-outbox-1' }, () =>
        dataSource.transaction(async (em) => {
          await em.insert(TestEffect, { kind: 'widget', ref: 'w-1' });
          return outbox.record(em, WIDGET_CREATED, 'partner-1', { name: 'w-1' });
        }),
      );

      const published = await waitFor('the event on the stream', async () =>
        (await kit.streamMessages()).find((m) => m.event.id === event.id),
      );
      expect(published.msgId).toBe(event.id);
      expect(published.subject).toBe(kit.subject(WIDGET_CREATED));
      expect(published.requestId).toBe('req-outbox-1');
      expect(published.event).toEqual({
        id: event.id,
        subject: WIDGET_CREATED,
        partnerId: 'partner-1',
        occurredAt: event.occurredAt,
        requestId: 'req-outbox-1',
        data: { name: 'w-1' },
      });
      expect(await kit.effects('widget')).toEqual(['w-1']);
      await waitFor(
        'the row to be marked published',
        async () => (await unpublished(WIDGET_CREATED)).length === 0,
      );
      expect(await kit.streamCount(WIDGET_CREATED)).toBe(1);
    });

    it('never publishes an event whose transaction rolled back', async () => {
      let rolledBack: DomainEvent | undefined;
      await expect(
        dataSource.transaction(async (em) => {
          await em.insert(TestEffect, { kind: 'widget', ref: 'w-rolled-back' });
          rolledBack = await outbox.record(em, WIDGET_CREATED, 'partner-1', { name: 'w-rolled-back' });
          throw new Error('business rule failed after recording');
        }),
      ).rejects.toThrow('business rule failed after recording');
      expect(rolledBack?.id).toBeDefined();

      // An event committed afterwards proves the relay has run past the moment the rolled-back one would show.
      const marker = await dataSource.transaction((em) =>
        outbox.record(em, WIDGET_CREATED, 'partner-1', { name: 'marker' }),
      );
      await waitFor('the marker on the stream', async () =>
        (await kit.streamMessages()).some((m) => m.event.id === marker.id),
      );

      const streamed = (await kit.streamMessages()).map((m) => m.event.id);
      expect(streamed).not.toContain(rolledBack!.id);
      expect(await kit.streamCount(WIDGET_CREATED)).toBe(2);
      expect((await outboxRows(WIDGET_CREATED)).map((r) => r.id)).not.toContain(rolledBack!.id);
      expect(await kit.effects('widget')).toEqual(['w-1']);
    });

    it('publishes each of several events recorded in one transaction', async () => {
      const events = await dataSource.transaction(async (em) => [
        await outbox.record(em, WIDGET_CREATED, 'partner-2', { name: 'a' }),
        await outbox.record(em, WIDGET_CREATED, 'partner-2', { name: 'b' }),
        await outbox.record(em, WIDGET_CREATED, null, { name: 'c' }),
      ]);
      await waitFor('three more messages', async () => (await kit.streamCount(WIDGET_CREATED)) === 5);
      const byId = new Map((await kit.streamMessages()).map((m) => [m.event.id, m]));
      for (const e of events) expect(byId.get(e.id)?.msgId).toBe(e.id);
      expect(byId.get(events[2].id)?.event.partnerId).toBeNull();
    });

    it('records into a schema whose name needs quoting', async () => {
      const schema = 'Billing-Ledger';
      await runMigrations(kit.dataSourceOptions(schema));
      const ds = await kit.openDataSource(schema);
      const event = await ds.transaction((em) =>
        new OutboxService<TestEvents>().record(em, WIDGET_CREATED, null, { name: 'quoted' }),
      );
      const rows = await kit.query<{ id: string }>(`SELECT id FROM "${schema}"."outbox"`);
      expect(rows.map((r) => r.id)).toEqual([event.id]);
      await kit.closeDataSource(ds);
    });

    it('refuses to record outside a transaction', async () => {
      await expect(outbox.record(dataSource.manager, WIDGET_CREATED, null, {})).rejects.toThrow(
        /inside a transaction/,
      );
    });
  });

  describe('after a crash', () => {
    let consumed: string[] = [];

    it('publishes events committed while no relay ran, and a consumer gets each exactly once', async () => {
      // The "crashed" process: its transactions committed, its relay never got to run.
      const crashed = await kit.openDataSource();
      const events = await recordWithoutRelay(crashed, CRASH_SUBJECT, 5, 'req-crash');
      // The backlog shows as relay lag (what a readiness probe or alert reads).
      const lagProbe = new OutboxRelayService(crashed, undefined as never, undefined as never);
      await waitFor('a measurable lag', async () => (await lagProbe.lagSeconds()) > 0);
      await kit.closeDataSource(crashed);
      expect(await unpublished(CRASH_SUBJECT)).toHaveLength(5);
      expect(await kit.streamCount(CRASH_SUBJECT)).toBe(0);

      const app = await kit.startApp({ serviceName: 'recovering', providers: [CrashProbe] });
      const probe = app.get(CrashProbe);
      await waitFor('every event handled', () => probe.seen.length >= 5);
      await kit.waitConsumerDrained('crash_probe');

      const ids = events.map((e) => e.id).sort();
      expect(probe.seen.map((s) => s.eventId).sort()).toEqual(ids);
      expect(probe.seen.every((s) => s.requestId === 'req-crash')).toBe(true);
      expect((await kit.effects('crash_probe')).sort()).toEqual(ids);
      expect(await kit.streamCount(CRASH_SUBJECT)).toBe(5);
      expect(await unpublished(CRASH_SUBJECT)).toHaveLength(0);
      expect(await app.get(OutboxRelayService).lagSeconds()).toBe(0);
      consumed = ids;
      await kit.stopApp(app);
    });

    it('does not duplicate events published just before the crash but not yet marked', async () => {
      const crashed = await kit.openDataSource();
      const events = await recordWithoutRelay(crashed, CRASH_SUBJECT, 3, 'req-crash-2');
      // What the dying relay got out before it could mark the rows published.
      const js = kit.nc.jetstream();
      for (const e of events) {
        const h = natsHeaders();
        h.set(MessageHeaders.requestId, 'req-crash-2');
        await js.publish(kit.subject(CRASH_SUBJECT), encodeJson(e), { msgID: e.id, headers: h });
      }
      await kit.closeDataSource(crashed);
      expect(await unpublished(CRASH_SUBJECT)).toHaveLength(3);

      const app = await kit.startApp({ serviceName: 'recovering', providers: [CrashProbe] });
      const probe = app.get(CrashProbe);
      await waitFor(
        'the rows to be marked published',
        async () => (await unpublished(CRASH_SUBJECT)).length === 0,
      );
      await waitFor('every new event handled', () => probe.seen.length >= 3);
      await kit.waitConsumerDrained('crash_probe');

      expect(await kit.streamCount(CRASH_SUBJECT)).toBe(5 + 3);
      expect(probe.seen.map((s) => s.eventId).sort()).toEqual(events.map((e) => e.id).sort());
      expect((await kit.effects('crash_probe')).sort()).toEqual(
        [...consumed, ...events.map((e) => e.id)].sort(),
      );
      await kit.stopApp(app);
    });
  });

  describe('with two relays on one database', () => {
    it('publishes every row exactly once', async () => {
      const wire = await kit.tap(RACE_SUBJECT);

      // A backlog both relays find at start, then a stream of commits that wakes both of them at once.
      const writer = await kit.openDataSource();
      const backlog = 250;
      await writer.transaction(async (em) => {
        const outbox = new OutboxService<TestEvents>();
        for (let n = 0; n < backlog; n++) await outbox.record(em, RACE_SUBJECT, 'partner-1', { n });
      });
      const [a, b] = await Promise.all([
        kit.startApp({ serviceName: 'relay-a' }),
        kit.startApp({ serviceName: 'relay-b' }),
      ]);
      const outbox = a.get<OutboxService<TestEvents>>(OutboxService);
      const writes = 20;
      const perWrite = 10;
      await Promise.all(
        Array.from({ length: writes }, (_, w) =>
          (w % 2 ? a : b).get(DataSource).transaction(async (em) => {
            for (let n = 0; n < perWrite; n++) await outbox.record(em, RACE_SUBJECT, 'partner-1', { w, n });
          }),
        ),
      );
      const total = backlog + writes * perWrite;

      await waitFor('every row published', async () => (await unpublished(RACE_SUBJECT)).length === 0, {
        timeoutMs: 15_000,
      });
      await waitFor(
        'every message on the stream',
        async () => (await kit.streamCount(RACE_SUBJECT)) === total,
      );
      await kit.nc.flush();

      const rowIds = (await outboxRows(RACE_SUBJECT)).map((r) => r.id).sort();
      expect(rowIds).toHaveLength(total);
      const wireIds = wire.map((m) => m.headers?.get('Nats-Msg-Id') ?? '').sort();
      expect(wireIds).toEqual(rowIds);
      expect(await kit.streamCount(RACE_SUBJECT)).toBe(total);
      await kit.stopApp(a);
      await kit.stopApp(b);
      await kit.closeDataSource(writer);
    });
  });

  describe('lifecycle', () => {
    it('finishes the relay pass in progress when the service shuts down', async () => {
      const app = await kit.startApp({ serviceName: 'closing' });
      const outbox = app.get<OutboxService<TestEvents>>(OutboxService);
      const total = 300;
      await app.get(DataSource).transaction(async (em) => {
        for (let n = 0; n < total; n++) await outbox.record(em, CLOSING_SUBJECT, 'partner-1', { n });
      });
      await waitFor('the relay to be publishing', async () => (await kit.streamCount(CLOSING_SUBJECT)) > 0, {
        intervalMs: 5,
      });
      await kit.stopApp(app);

      // Nothing half done: what went out is marked, and the pass ran to the end before NATS and Postgres closed.
      expect(await kit.streamCount(CLOSING_SUBJECT)).toBe(total);
      expect(await unpublished(CLOSING_SUBJECT)).toHaveLength(0);
    });

    it('holds no LISTEN connection: its own commits wake it, and a row another process recorded goes at the poll', async () => {
      const app = await kit.startApp({ serviceName: 'polled' });
      const listeners = await kit.query(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
      );
      expect(listeners).toHaveLength(0);
      // As another replica would: the row is committed on another connection, with no wake-up here.
      const id = randomUUID();
      const event = {
        id,
        subject: WIDGET_CREATED,
        partnerId: null,
        occurredAt: new Date().toISOString(),
        data: { name: 'elsewhere' },
      };
      await kit.query(`INSERT INTO "${TEST_SCHEMA}"."outbox" (id, subject, event) VALUES ($1, $2, $3)`, [
        id,
        WIDGET_CREATED,
        JSON.stringify(event),
      ]);
      await waitFor("the other process's event on the stream", async () =>
        (await kit.streamMessages()).some((m) => m.event.id === id),
      );
      await kit.stopApp(app);
    });
  });
});
