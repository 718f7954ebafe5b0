// One call's deliveries to an endpoint go out in the call's order, against real Postgres: the claim holds a
// later status while an earlier one is queued, being sent or retrying, whichever replica claims.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { runMigrations } from '@vap/persistence';
import { WebhooksConfig } from '../config/webhooks.config';
import { webhooksDataSourceOptions } from '../database/data-source';
import { deliveryOrder } from './delivery-order';
import {
  ClaimedDelivery,
  DeliveryQueueRepository,
  InsertClaim,
  NewDelivery,
  Settlement,
  SUPERSEDED_ERROR,
} from './delivery-queue.repository';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const LEASE_MS = 30_000;
/** Long enough that a delivery waiting for its previous status is never let go by the wait in a test. */
const HOLD = 60_000;

type Status = 'pending' | 'ringing' | 'in_progress' | 'completed';

describe('delivery order per endpoint and call', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let queue: DeliveryQueueRepository;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_webhook_order');
    const config = Object.assign(new WebhooksConfig(), {
      DATABASE_URL: db.url,
      SECRETS_KEY: 'a'.repeat(64),
      WEBHOOK_DB_POOL_SIZE: 8,
    });
    await runMigrations(webhooksDataSourceOptions(config));
    dataSource = await new DataSource(webhooksDataSourceOptions(config)).initialize();
    queue = new DeliveryQueueRepository(dataSource);
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** A new endpoint of a new partner; each test claims only its own endpoints' deliveries. */
  async function newEndpoint(): Promise<{ partnerId: string; endpointId: string }> {
    const partnerId = randomUUID();
    const endpointId = randomUUID();
    await dataSource.query(
      `INSERT INTO webhooks.endpoints (id, partner_id, label, url, secret_sealed) VALUES ($1, $2, 'e', 'https://x.test', 's')`,
      [endpointId, partnerId],
    );
    return { partnerId, endpointId };
  }

  const PREVIOUS: Record<Status, Status | null> = {
    pending: null,
    ringing: 'pending',
    in_progress: 'ringing',
    completed: 'in_progress',
  };

  function statusEvent(
    to: { partnerId: string; endpointId: string },
    callId: string,
    status: Status,
  ): NewDelivery {
    const data = { call_id: callId, status, previous_status: PREVIOUS[status] };
    return {
      ...to,
      eventId: randomUUID(),
      eventType: 'call.status.updated',
      agentId: null,
      body: JSON.stringify({ event: 'call.status.updated', data }),
      order: deliveryOrder('call.status.updated', data),
    };
  }

  const enqueue = (deliveries: NewDelivery[], claim?: InsertClaim) =>
    dataSource.transaction((em) => queue.enqueue(em, deliveries, claim));

  /** Claims as a replica would, keeping only this test's endpoints' deliveries (others' go back at once). */
  async function claim(endpoints: string[], worker = 'w', orderWaitMs = HOLD): Promise<ClaimedDelivery[]> {
    const claimed = await queue.claim(worker, 100, LEASE_MS, orderWaitMs);
    const others = claimed.filter((c) => !endpoints.includes(c.endpointId));
    if (others.length)
      await dataSource.query(
        `UPDATE webhooks.deliveries SET status = 'pending', attempts = attempts - 1, locked_by = NULL, locked_until = NULL
         WHERE id = ANY($1::uuid[])`,
        [others.map((c) => c.id)],
      );
    return claimed.filter((c) => endpoints.includes(c.endpointId));
  }

  const settle = (c: ClaimedDelivery, next: Settlement) =>
    queue.settle(
      c,
      {
        startedAt: new Date(),
        latencyMs: 1,
        statusCode: next.kind === 'succeeded' ? 200 : 500,
        succeeded: next.kind === 'succeeded',
        responseBody: null,
        error: null,
      },
      next,
    );

  const statusOf = (c: ClaimedDelivery) => (JSON.parse(c.body) as { data: { status: Status } }).data.status;

  it('holds a later status while the earlier one retries, until it is delivered', async () => {
    const to = await newEndpoint();
    const callId = randomUUID();
    await enqueue([statusEvent(to, callId, 'pending')]);
    await enqueue([statusEvent(to, callId, 'ringing')]);

    const [first, ...rest] = await claim([to.endpointId]);
    expect(rest).toEqual([]);
    expect(statusOf(first)).toBe('pending');
    // Being sent: ringing waits.
    expect(await claim([to.endpointId])).toEqual([]);
    // Failed and due again at once: still pending's turn, for any of two replicas claiming together.
    await settle(first, { kind: 'retry', delayMs: 0 });
    const [a, b] = await Promise.all([claim([to.endpointId], 'w1'), claim([to.endpointId], 'w2')]);
    const retried = [...a, ...b];
    expect(retried.map(statusOf)).toEqual(['pending']);
    // Scheduled for later: ringing still waits, though it is due and the earlier one is not.
    await settle(retried[0], { kind: 'retry', delayMs: 60_000 });
    expect(await claim([to.endpointId])).toEqual([]);
    await dataSource.query(`UPDATE webhooks.deliveries SET next_attempt_at = now() WHERE id = $1`, [
      retried[0].id,
    ]);
    const [again] = await claim([to.endpointId]);
    await settle(again, { kind: 'succeeded' });
    expect((await claim([to.endpointId])).map(statusOf)).toEqual(['ringing']);
  });

  it('lets the later status go once the earlier one is dead-lettered', async () => {
    const to = await newEndpoint();
    const callId = randomUUID();
    await enqueue([statusEvent(to, callId, 'pending'), statusEvent(to, callId, 'ringing')]);
    const [first] = await claim([to.endpointId]);
    expect(statusOf(first)).toBe('pending');
    await settle(first, { kind: 'failed' });
    expect((await claim([to.endpointId])).map(statusOf)).toEqual(['ringing']);
  });

  it('orders each call on each endpoint on its own: other calls and endpoints are not held', async () => {
    const to = await newEndpoint();
    const other = await newEndpoint();
    const callId = randomUUID();
    const otherCall = randomUUID();
    await enqueue([
      statusEvent(to, callId, 'pending'),
      statusEvent(to, callId, 'ringing'),
      statusEvent(to, otherCall, 'pending'),
      statusEvent(other, callId, 'pending'),
    ]);
    const claimed = await claim([to.endpointId, other.endpointId]);
    expect(
      claimed.map((c) => `${c.endpointId === to.endpointId ? 'to' : 'other'}/${statusOf(c)}`).sort(),
    ).toEqual(['other/pending', 'to/pending', 'to/pending']);
  });

  it('writes claimed at queueing only what is free to go: never a status behind an earlier one', async () => {
    const to = await newEndpoint();
    const callId = randomUUID();
    const queued = await enqueue([statusEvent(to, callId, 'pending'), statusEvent(to, callId, 'ringing')], {
      workerId: 'w',
      count: 2,
      leaseMs: LEASE_MS,
    });
    expect(queued.map((q) => q.token !== null)).toEqual([true, false]);
    const rows = (await dataSource.query(
      `SELECT status, order_seq FROM webhooks.deliveries WHERE endpoint_id = $1 ORDER BY order_seq`,
      [to.endpointId],
    )) as { status: string }[];
    expect(rows.map((r) => r.status)).toEqual(['delivering', 'pending']);
    expect(await claim([to.endpointId])).toEqual([]);
  });

  it('waits for a previous status not queued yet, then sends the late one first', async () => {
    const to = await newEndpoint();
    const callId = randomUUID();
    // ringing's fan-out committed before pending's (concurrent handlers): ringing waits for pending.
    await enqueue([statusEvent(to, callId, 'ringing')], { workerId: 'w', count: 1, leaseMs: LEASE_MS });
    expect(await claim([to.endpointId])).toEqual([]);
    await enqueue([statusEvent(to, callId, 'pending')]);
    const [first, ...rest] = await claim([to.endpointId]);
    expect([statusOf(first), rest.length]).toEqual(['pending', 0]);
    await settle(first, { kind: 'succeeded' });
    expect((await claim([to.endpointId])).map(statusOf)).toEqual(['ringing']);
  });

  it('sends a status whose previous one never comes once the wait is over', async () => {
    const to = await newEndpoint();
    const callId = randomUUID();
    await enqueue([statusEvent(to, callId, 'in_progress')]);
    expect(await claim([to.endpointId], 'w', HOLD)).toEqual([]);
    expect((await claim([to.endpointId], 'w', 0)).map(statusOf)).toEqual(['in_progress']);
  });

  it('never sends an earlier status that arrives after a later one was sent: it is failed, with why', async () => {
    const to = await newEndpoint();
    const callId = randomUUID();
    await enqueue([statusEvent(to, callId, 'completed')]);
    const [completed] = await claim([to.endpointId], 'w', 0);
    await settle(completed, { kind: 'succeeded' });
    const [late] = await enqueue([statusEvent(to, callId, 'in_progress')], {
      workerId: 'w',
      count: 1,
      leaseMs: LEASE_MS,
    });
    expect(late.token).toBeNull();
    const [row] = (await dataSource.query(
      `SELECT status, attempts, last_error, completed_at IS NOT NULL AS completed FROM webhooks.deliveries WHERE id = $1`,
      [late.id],
    )) as unknown[];
    expect(row).toEqual({ status: 'failed', attempts: 0, last_error: SUPERSEDED_ERROR, completed: true });
    expect(await claim([to.endpointId], 'w', 0)).toEqual([]);
  });

  it('puts session.completed after the call’s statuses still queued', async () => {
    const to = await newEndpoint();
    const callId = randomUUID();
    await enqueue([statusEvent(to, callId, 'completed')]);
    const data = { call_id: callId };
    await enqueue([
      {
        ...to,
        eventId: randomUUID(),
        eventType: 'session.completed',
        agentId: null,
        body: JSON.stringify({ event: 'session.completed', data }),
        order: deliveryOrder('session.completed', data),
      },
    ]);
    // completed waits for its previous status (never queued here); the session waits for completed.
    expect(await claim([to.endpointId])).toEqual([]);
    const [completed, ...rest] = await claim([to.endpointId], 'w', 0);
    expect([completed.eventType, rest.length]).toEqual(['call.status.updated', 0]);
    await settle(completed, { kind: 'succeeded' });
    expect((await claim([to.endpointId])).map((c) => c.eventType)).toEqual(['session.completed']);
  });

  it('with four replicas claiming at once, each call’s statuses go out one at a time and in order', async () => {
    const to = await newEndpoint();
    const calls = Array.from({ length: 6 }, () => randomUUID());
    const statuses: Status[] = ['pending', 'ringing', 'in_progress', 'completed'];
    // Queued in reverse, by several transactions at once, as concurrent fan-outs might.
    await Promise.all(
      calls.map((callId) => enqueue([...statuses].reverse().map((s) => statusEvent(to, callId, s)))),
    );
    const sent = new Map<string, Status[]>(calls.map((c) => [c, []]));
    const inFlight = new Set<string>();
    const callOf = (c: ClaimedDelivery) => (JSON.parse(c.body) as { data: { call_id: string } }).data.call_id;
    let failures = 0;
    const replica = async (name: string) => {
      for (let idle = 0; idle < 20;) {
        const claimed = await claim([to.endpointId], name);
        if (claimed.length === 0) {
          idle++;
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        idle = 0;
        await Promise.all(
          claimed.map(async (c) => {
            const callId = callOf(c);
            expect(inFlight.has(callId)).toBe(false);
            inFlight.add(callId);
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
            inFlight.delete(callId);
            // Every other first attempt fails and is retried at once.
            if (c.attempts === 1 && failures++ % 2 === 0) return settle(c, { kind: 'retry', delayMs: 0 });
            sent.get(callId)!.push(statusOf(c));
            return settle(c, { kind: 'succeeded' });
          }),
        );
      }
    };
    await Promise.all(['r1', 'r2', 'r3', 'r4'].map(replica));
    for (const callId of calls) expect(sent.get(callId)).toEqual(statuses);
  }, 30_000);
});
