// Inbox pruning against real Postgres and NATS JetStream: handled event ids older than the stream's
// retention are pruned, recent ones stay, and an event redelivered within retention is still recognised as
// handled.
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEvent } from '@vap/messages';
import { MessagingTestKit, TEST_SCHEMA } from '../testing/messaging-test-kit';
import { EventConsumerService } from './event-consumer.service';
import { InboxPrunerService } from './inbox-pruner.service';

jest.setTimeout(30_000);

const DAY_MS = 24 * 60 * 60 * 1000;

describe('inbox pruning', () => {
  let kit: MessagingTestKit;

  beforeAll(async () => {
    kit = await MessagingTestKit.create('vap_msg_retention');
  });

  afterAll(async () => {
    await kit?.dispose();
  });

  const start = (eventRetentionMs?: number) => kit.startStreamApp(eventRetentionMs);

  it("prunes handled event ids past the stream's retention, keeps recent ones, and still deduplicates them", async () => {
    const apps = [await start(2 * DAY_MS), await start(2 * DAY_MS)];
    const inbox = `"${TEST_SCHEMA}"."inbox"`;
    const old = Array.from({ length: 12_000 }, () => randomUUID());
    const recent = [randomUUID(), randomUUID()];
    await kit.query(
      `INSERT INTO ${inbox} (consumer, event_id, processed_at)
       SELECT 'orders', id, now() - interval '3 days' FROM unnest($1::uuid[]) AS id`,
      [old],
    );
    await kit.query(
      `INSERT INTO ${inbox} (consumer, event_id, processed_at) VALUES ('orders', $1, now() - interval '1 day'),
       ('orders', $2, now())`,
      recent,
    );

    // Two replicas prune at once: together they remove every old row, each at most once.
    const pruned = await Promise.all(apps.map((app) => app.get(InboxPrunerService).prune()));
    expect(pruned[0] + pruned[1]).toBe(old.length);
    const left = await kit.query<{ event_id: string }>(`SELECT event_id FROM ${inbox} ORDER BY processed_at`);
    expect(left.map((r) => r.event_id)).toEqual(recent);

    // A redelivery of a recent event finds its id: no second effect.
    let applied = 0;
    const handler = async (_event: DomainEvent, _em: EntityManager) => {
      applied++;
    };
    const consumer = apps[0].get(EventConsumerService);
    const event = (id: string): DomainEvent => ({
      id,
      subject: 'events.order.placed',
      partnerId: null,
      occurredAt: new Date().toISOString(),
      data: {},
    });
    expect(await consumer.process('orders', event(recent[0]), handler)).toBe(false);
    expect(await consumer.process('orders', event(randomUUID()), handler)).toBe(true);
    expect(applied).toBe(1);
    for (const app of apps) await kit.stopApp(app);
  });

  it('leaves the inbox alone while the stream keeps events without a limit', async () => {
    const app = await start();
    await kit.jsm.streams.update(kit.streamName, { max_age: 0 });
    const id = randomUUID();
    await kit.query(
      `INSERT INTO "${TEST_SCHEMA}"."inbox" (consumer, event_id, processed_at)
       VALUES ('orders', $1, now() - interval '400 days')`,
      [id],
    );
    expect(await app.get(InboxPrunerService).prune()).toBe(0);
    const ds = app.get(DataSource);
    expect(await ds.query(`SELECT 1 FROM "${TEST_SCHEMA}"."inbox" WHERE event_id = $1`, [id])).toHaveLength(
      1,
    );
    await kit.stopApp(app);
  });
});
