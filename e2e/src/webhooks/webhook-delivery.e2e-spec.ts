// Signed delivery and what happens when a receiver fails: retries on the schedule (the e2e platform runs
// WEBHOOK_RETRY_SCHEDULE=1s,1s,2s with no jitter and a 2 s timeout), the same X-Webhook-Id on every attempt,
// Retry-After, timeouts, one failing endpoint never holding up another, send-test, history and manual retry.
import { api, ApiResponse } from '../../support';
import {
  createEndpoint,
  EventPublisher,
  newPartner,
  sleep,
  statusData,
  useDeliveryBench,
} from './webhook-fixtures';
import { verifySignature, WebhookReceiver } from './webhook-receiver';

const STATUS = 'events.call.status_updated';

describe('webhook delivery', () => {
  let receiver: WebhookReceiver;
  let events: EventPublisher;
  let partnerId: string;
  let key: string;

  const bench = useDeliveryBench();
  beforeAll(() => ({ receiver, events } = bench));

  beforeEach(async () => {
    ({ id: partnerId, key } = await newPartner());
    receiver.answer = () => ({});
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function endpoint(path: string, body: Record<string, unknown> = {}): Promise<any> {
    return createEndpoint(key, { url: receiver.at(path), ...body });
  }

  /** Answers requests on `path` from `plan` in order (then 200). */
  function plan(
    path: string,
    answers: { status?: number; headers?: Record<string, string>; delayMs?: number }[],
  ): void {
    const previous = receiver.answer;
    let n = 0;
    receiver.answer = (req, i) => (req.path === `/${path}` ? (answers[n++] ?? {}) : previous(req, i));
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function history(endpointId: string, query = ''): Promise<any[]> {
    const res = await api(`/config/webhooks/${endpointId}/deliveries${query}`, { key });
    expect(res.status).toBe(200);
    return res.body.data.deliveries;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function delivery(id: string): Promise<any> {
    const res = await api(`/webhook-deliveries/${id}`, { key });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  /**
   * How long the platform waited before each retry: from the end of one attempt (its answer, or its failure)
   * to the start of the next, as the delivery's own record (attempt_history) says. Measured where the schedule
   * is kept, so a receiver that handles a request late on a busy machine cannot shorten it.
   */
  function waitsBeforeRetries(attempts: { started_at: string; latency_ms: number }[]): number[] {
    return attempts
      .slice(1)
      .map(
        (a, i) => Date.parse(a.started_at) - (Date.parse(attempts[i].started_at) + attempts[i].latency_ms),
      );
  }

  it('retries after 500s with the same X-Webhook-Id and a fresh signature each time, then succeeds', async () => {
    const e = await endpoint('d1');
    plan('d1', [{ status: 500 }, { status: 500 }]);
    await events.publish(STATUS, partnerId, statusData(null));
    const reqs = await receiver.waitFor(3, (r) => r.path === '/d1');
    expect(new Set(reqs.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
    expect(new Set(reqs.map((r) => r.headers['x-webhook-timestamp'])).size).toBe(3);
    expect(new Set(reqs.map((r) => r.rawBody)).size).toBe(1);
    for (const r of reqs) expect(verifySignature(r, e.secret)).toBe(true);

    // The outcome is recorded after the receiver answers: wait for it rather than race it.
    await waitForStatus(reqs[0].headers['x-webhook-id'] as string, 'succeeded');
    const [d] = await history(e.id);
    expect(d).toMatchObject({
      id: reqs[0].headers['x-webhook-id'],
      status: 'succeeded',
      attempts: 3,
      last_status_code: 200,
    });
    const detail = await delivery(d.id);
    // Schedule 1s, 1s: the retries come about a second apart, not at once.
    const waits = waitsBeforeRetries(detail.attempt_history);
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(950);
    expect(detail.attempt_history.map((a: { status_code: number }) => a.status_code)).toEqual([
      500, 500, 200,
    ]);
    expect(detail.attempt_history.map((a: { outcome: string }) => a.outcome)).toEqual([
      'failed',
      'failed',
      'succeeded',
    ]);
    expect(detail.attempt_history[0]).toMatchObject({
      attempt: 1,
      error: 'HTTP 500',
      response_body: '{"received":true}',
    });
    expect(detail.attempt_history[0].latency_ms).toEqual(expect.any(Number));
    expect(detail.payload).toEqual(JSON.parse(reqs[0].rawBody));
    const [listed] = (await api('/config/webhooks', { key })).body.data.endpoints;
    expect(listed).toMatchObject({ last_delivery_status: 'succeeded', failing_since: null });
    expect(Date.parse(listed.last_delivery_at)).not.toBeNaN();
  });

  it('fails a delivery after the last scheduled attempt; a manual retry sends it again under the same id', async () => {
    const e = await endpoint('d2');
    receiver.answer = (req) => (req.path === '/d2' ? { status: 503 } : {});
    await events.publish(STATUS, partnerId, statusData(null));
    // 1 attempt + 3 retries (1s, 1s, 2s).
    const reqs = await receiver.waitFor(4, (r) => r.path === '/d2');
    const id = reqs[0].headers['x-webhook-id'] as string;
    const failed = await waitForStatus(id, 'failed');
    expect(failed).toMatchObject({ attempts: 4, last_status_code: 503, next_attempt_at: null });
    expect(failed.completed_at).not.toBeNull();
    await sleep(1500);
    expect(receiver.on('d2')).toHaveLength(4);
    const endpointNow = (await api('/config/webhooks', { key })).body.data.endpoints[0];
    expect(endpointNow.last_delivery_status).toBe('failed');
    expect(endpointNow.failing_since).not.toBeNull();

    receiver.answer = () => ({});
    const retried = await api(`/webhook-deliveries/${id}/retry`, { method: 'POST', key });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({
      id,
      status: expect.stringMatching(/pending|delivering|succeeded/),
    });
    const [again] = (await receiver.waitFor(5, (r) => r.path === '/d2')).slice(4);
    expect(again.headers['x-webhook-id']).toBe(id);
    expect(again.rawBody).toBe(reqs[0].rawBody);
    expect(verifySignature(again, e.secret)).toBe(true);
    expect(await waitForStatus(id, 'succeeded')).toMatchObject({ attempts: 5 });
  });

  it('refuses to retry a delivery still queued, and 404s for another account’s', async () => {
    const e = await endpoint('d3');
    receiver.answer = (req) => (req.path === '/d3' ? { status: 500 } : {});
    const test = await api(`/config/webhooks/${e.id}/test`, { method: 'POST', key });
    expect(test.status).toBe(200);
    const id = test.body.data.id;
    await receiver.waitFor(1, (r) => r.path === '/d3');
    const busy = await api(`/webhook-deliveries/${id}/retry`, { method: 'POST', key });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('INVALID_STATE');
    const other = await newPartner();
    expect((await api(`/webhook-deliveries/${id}`, { key: other.key })).status).toBe(404);
    expect((await api(`/webhook-deliveries/${id}/retry`, { method: 'POST', key: other.key })).status).toBe(
      404,
    );
    expect((await api('/webhook-deliveries/not-an-id', { key })).status).toBe(404);
    receiver.answer = () => ({});
  });

  it('honours Retry-After when it asks for longer than the schedule', async () => {
    await endpoint('d4');
    plan('d4', [{ status: 429, headers: { 'retry-after': '3' } }]);
    await events.publish(STATUS, partnerId, statusData(null));
    const reqs = await receiver.waitFor(2, (r) => r.path === '/d4', 15_000);
    const id = reqs[0].headers['x-webhook-id'] as string;
    await waitForStatus(id, 'succeeded');
    // Scheduled 1s (2s after a 429); Retry-After asked for 3s.
    const waits = waitsBeforeRetries((await delivery(id)).attempt_history);
    expect(waits).toEqual([expect.any(Number)]);
    expect(waits[0]).toBeGreaterThanOrEqual(2950);
  });

  it('times out a receiver that does not answer within the deadline, then retries', async () => {
    const e = await endpoint('d5');
    plan('d5', [{ delayMs: 4000 }]);
    await events.publish(STATUS, partnerId, statusData(null));
    const reqs = await receiver.waitFor(2, (r) => r.path === '/d5', 15_000);
    expect(reqs[1].headers['x-webhook-id']).toBe(reqs[0].headers['x-webhook-id']);
    const [d] = await history(e.id);
    await waitForStatus(d.id, 'succeeded');
    const detail = await delivery(d.id);
    expect(detail.attempt_history[0]).toMatchObject({ attempt: 1, status_code: null, outcome: 'failed' });
    expect(detail.attempt_history[0].error).toMatch(/no response within/);
    expect(detail.attempt_history[0].latency_ms).toBeGreaterThanOrEqual(1900);
    // After a timeout the scheduled 1s doubles.
    const waits = waitsBeforeRetries(detail.attempt_history);
    expect(waits).toEqual([expect.any(Number)]);
    expect(waits[0]).toBeGreaterThanOrEqual(1950);
  });

  it('lets a stalled endpoint hold up no other endpoint', async () => {
    await endpoint('d6-stalled');
    await endpoint('d6-healthy');
    receiver.answer = (req) => (req.path === '/d6-stalled' ? { delayMs: 5000 } : {});
    const first = await events.publish(STATUS, partnerId, statusData(null));
    const [healthy] = await receiver.waitFor(1, (r) => r.path === '/d6-healthy');
    const [stalled] = await receiver.waitFor(1, (r) => r.path === '/d6-stalled');
    expect(Math.abs(healthy.receivedAt - stalled.receivedAt)).toBeLessThan(1000);
    // While the stalled endpoint's delivery waits for its retry, new events still reach the healthy one at once.
    const sentAt = Date.now();
    await events.publish(STATUS, partnerId, statusData(null));
    const later = await receiver.waitFor(2, (r) => r.path === '/d6-healthy');
    expect(later[1].receivedAt - sentAt).toBeLessThan(1500);
    expect(first).toBeDefined();
    receiver.answer = () => ({});
  });

  it('sends webhook.test to the tested endpoint only, whatever its allowlist, even when disabled', async () => {
    const e = await endpoint('d7', { events: ['session.completed'], enabled: false });
    const bystander = await endpoint('d7-bystander');
    const res = await api(`/config/webhooks/${e.id}/test`, { method: 'POST', key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      endpoint_id: e.id,
      event_type: 'webhook.test',
      status: expect.any(String),
    });
    const [req] = await receiver.waitFor(1, (r) => r.path === '/d7');
    expect(verifySignature(req, e.secret)).toBe(true);
    expect(req.json).toMatchObject({ event: 'webhook.test', data: { endpoint_id: e.id, label: e.label } });
    expect(req.headers['x-webhook-id']).toBe(res.body.data.id);
    await sleep(500);
    expect(receiver.on('d7-bystander')).toHaveLength(0);
    expect(await history(bystander.id)).toEqual([]);
  });

  it('filters and pages the history', async () => {
    const e = await endpoint('d8', { events: ['call.status.updated', 'webhook.test'] });
    for (let n = 0; n < 3; n++) await events.publish(STATUS, partnerId, statusData(null));
    await api(`/config/webhooks/${e.id}/test`, { method: 'POST', key });
    await receiver.waitFor(4, (r) => r.path === '/d8');
    await waitForHistory(e.id, (all) => all.length === 4 && all.every((d) => d.status === 'succeeded'));

    expect((await history(e.id, '?event_type=webhook.test')).map((d) => d.event_type)).toEqual([
      'webhook.test',
    ]);
    expect(await history(e.id, '?event_type=call.status.updated')).toHaveLength(3);
    expect(await history(e.id, '?status=failed')).toEqual([]);
    expect(
      await history(e.id, `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`),
    ).toEqual([]);
    expect(
      await history(e.id, `?until=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`),
    ).toHaveLength(4);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse = await api(
        `/config/webhooks/${e.id}/deliveries?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        { key },
      );
      seen.push(...res.body.data.deliveries.map((d: { id: string }) => d.id));
      cursor = res.body.data.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);

    for (const bad of [
      '?status=lost',
      '?event_type=session.failed',
      '?since=yesterday',
      '?limit=0',
      '?cursor=zzz',
    ]) {
      const res = await api(`/config/webhooks/${e.id}/deliveries${bad}`, { key });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
  });

  async function waitForStatus(id: string, status: string, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const d = await delivery(id);
      if (d.status === status) return d;
      if (Date.now() > deadline) throw new Error(`delivery ${id} is ${d.status}, not ${status}`);
      await sleep(200);
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function waitForHistory(endpointId: string, done: (all: any[]) => boolean, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const all = await history(endpointId, '?limit=100');
      if (done(all)) return all;
      if (Date.now() > deadline) throw new Error(`history of ${endpointId}: ${JSON.stringify(all)}`);
      await sleep(200);
    }
  }
});
