import { ServerResponse } from 'node:http';
import { VapApiError } from './errors';
import { backoffDelay, parseRetryAfter, RetryInfo } from './retry';
import { ScriptedServer, SeenRequest, sendError, sendJson } from './testing/scripted-server';
import { VapClient, VapClientOptions } from './vap-client';

const AGENT_LIST = { success: true, data: { agents: [], next_cursor: null } };
const CALL = { success: true, data: { call_id: 'c1', status: 'pending' } };

/** Answers each request with the next scripted step (the last one repeats). */
function script(...steps: ((req: SeenRequest, res: ServerResponse) => void)[]) {
  let n = 0;
  return (req: SeenRequest, res: ServerResponse) => steps[Math.min(n++, steps.length - 1)](req, res);
}

describe('retries (against a real HTTP server)', () => {
  const server = new ScriptedServer();
  let baseUrl: string;
  let retries: RetryInfo[];

  beforeAll(async () => {
    baseUrl = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.requests.length = 0;
    retries = [];
  });

  const sdk = (options: Partial<VapClientOptions> = {}) =>
    new VapClient({
      baseUrl,
      apiKey: 'rg_live_test',
      retry: { baseDelayMs: 10, onRetry: (info) => retries.push(info) },
      ...options,
    });

  it('sends a GET again after a 502 and a 429, and answers the success', async () => {
    server.handler = script(
      (_q, res) => sendError(res, 502, 'INTERNAL_ERROR'),
      (_q, res) => sendError(res, 429, 'RATE_LIMITED'),
      (_q, res) => sendJson(res, 200, AGENT_LIST),
    );
    const { data } = await sdk().agents.list();
    expect(data).toEqual(AGENT_LIST);
    expect(server.requests).toHaveLength(3);
    expect(retries.map((r) => r.status)).toEqual([502, 429]);
    expect(server.requests.every((r) => r.headers.authorization === 'Bearer rg_live_test')).toBe(true);
  });

  it('waits the Retry-After the answer gives before the next attempt', async () => {
    server.handler = script(
      (_q, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }),
      (_q, res) => sendJson(res, 200, AGENT_LIST),
    );
    const started = Date.now();
    await sdk().agents.list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(retries).toHaveLength(1);
    expect(retries[0].delayMs).toBeGreaterThanOrEqual(1000);
    expect(retries[0].delayMs).toBeLessThanOrEqual(1010);
  });

  it('gives up after maxAttempts and throws the last answer as a VapApiError', async () => {
    server.handler = (_q, res) => sendError(res, 502, 'INTERNAL_ERROR', { 'x-request-id': 'req-502' });
    const error = await sdk({ retry: { maxAttempts: 4, baseDelayMs: 5 } })
      .agents.list()
      .catch((e: unknown) => e);
    expect(server.requests).toHaveLength(4);
    expect(error).toBeInstanceOf(VapApiError);
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR', requestId: 'req-502' });
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs: the refusal is thrown at once', async () => {
    server.handler = (_q, res) =>
      sendError(
        res,
        429,
        'FREQUENCY_CAP_REACHED',
        { 'retry-after': '3600' },
        { retry_at: '2030-01-01T00:00:00.000Z' },
      );
    const error = await sdk()
      .agents.list()
      .catch((e: unknown) => e);
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({
      status: 429,
      code: 'FREQUENCY_CAP_REACHED',
      retryAt: '2030-01-01T00:00:00.000Z',
    });
  });

  it('never sends a POST without an idempotency key twice', async () => {
    server.handler = (_q, res) => sendError(res, 502, 'INTERNAL_ERROR');
    const error = await sdk()
      .agents.create({ body: { agent_name: 'A' } as never })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502 });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers['idempotency-key']).toBeUndefined();
  });

  it('gives a call start a generated Idempotency-Key and sends the same key and body on the retry', async () => {
    server.handler = script(
      (_q, res) => sendError(res, 502, 'INTERNAL_ERROR'),
      (_q, res) => sendJson(res, 200, CALL),
    );
    const body = { agent_id: '00000000-0000-4000-8000-000000000001', to_number: '+15550100' };
    const { data } = await sdk().calls.start({ body: body as never });
    expect(data).toEqual(CALL);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(JSON.parse(second.body)).toEqual(body);
    expect(first.body).toBe(second.body);
  });

  it('keeps the Idempotency-Key the caller gives, and each call start gets its own otherwise', async () => {
    server.handler = (_q, res) => sendJson(res, 200, CALL);
    const client = sdk();
    const body = { agent_id: '00000000-0000-4000-8000-000000000001', to_number: '+15550100' } as never;
    await client.calls.start({ body, headers: { 'Idempotency-Key': 'mine-1' } });
    await client.calls.start({ body });
    await client.calls.start({ body });
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe('mine-1');
    expect(new Set(keys).size).toBe(3);
  });

  it('sends a request again when the connection drops before an answer', async () => {
    server.handler = script(
      (_q, res) => res.socket?.destroy(),
      (_q, res) => sendJson(res, 200, AGENT_LIST),
    );
    await expect(sdk().agents.list()).resolves.toMatchObject({ data: AGENT_LIST });
    expect(server.requests).toHaveLength(2);
    expect(retries[0].error).toBeDefined();
  });

  it('sends every request once with retry: false', async () => {
    server.handler = (_q, res) => sendError(res, 502, 'INTERNAL_ERROR');
    await expect(sdk({ retry: false }).agents.list()).rejects.toMatchObject({ status: 502 });
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry other errors, and a 400 carries its details', async () => {
    server.handler = (_q, res) =>
      sendError(
        res,
        400,
        'VALIDATION_ERROR',
        {},
        {
          details: [{ field: 'limit', message: 'limit must not be greater than 100' }],
          request_id: 'req-400',
        },
      );
    const error = (await sdk()
      .agents.list({ query: { limit: 1000 } })
      .catch((e: unknown) => e)) as VapApiError;
    expect(server.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(VapApiError);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'limit', message: 'limit must not be greater than 100' }]);
    expect(error.requestId).toBe('req-400');
  });

  it('turns an answer without the envelope into a VapApiError too', async () => {
    server.handler = (_q, res) => res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>down</h1>');
    await expect(sdk().agents.list()).rejects.toMatchObject({
      status: 503,
      code: 'UNEXPECTED_RESPONSE',
      message: 'HTTP 503: <h1>down</h1>',
    });
  });
});

describe('retry timing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('backs off exponentially, capped, with half of each step random', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, { ...options, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, { ...options, random: () => 0.999 })).toBe(100);
    expect(backoffDelay(3, { ...options, random: () => 0 })).toBe(200);
    expect(backoffDelay(10, { ...options, random: () => 0.999 })).toBe(1000);
  });
});
