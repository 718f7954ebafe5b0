// The client against a real HTTP server on 127.0.0.1 (private networks allowed, as in development), and
// against the same server with the guard on. Log entries are kept in memory to read them back.
import { createHmac } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CONNECT_FAILED_MESSAGE } from '@vap/egress';
import { IntegrationLogEntry, IntegrationLogId, MASKED_HEADER_VALUE } from '@vap/messages';
import { KnowledgeConfig } from '../config/knowledge.config';
import { IntegrationLogWriter } from '../integration-logs/integration-log.writer';
import { PartnerRequest, PartnerRequestClient } from './partner-request-client';

class RecordingLog {
  entries: IntegrationLogEntry[] = [];
  async record(entry: IntegrationLogEntry): Promise<void> {
    this.entries.push(entry);
  }
}

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('PartnerRequestClient', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let failuresLeft = 0;
  const log = new RecordingLog();
  const client = new PartnerRequestClient(
    { WEBHOOK_ALLOW_PRIVATE_NETWORKS: true } as KnowledgeConfig,
    log as unknown as IntegrationLogWriter,
  );
  const guarded = new PartnerRequestClient(
    { WEBHOOK_ALLOW_PRIVATE_NETWORKS: false } as KnowledgeConfig,
    log as unknown as IntegrationLogWriter,
  );
  const secret = 'fnsec_test-secret';

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const path = new URL(req.url!, 'http://x').pathname;
        if (path === '/flaky' && failuresLeft > 0) {
          failuresLeft -= 1;
          res.writeHead(503).end('busy');
        } else if (path === '/slow') {
          setTimeout(() => res.writeHead(200).end('late'), 3000);
        } else if (path === '/big') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('z'.repeat(5000));
        } else if (path === '/missing') {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such order"}');
        } else {
          res
            .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
            .end('{"status":"shipped"}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await client.onModuleDestroy();
    await guarded.onModuleDestroy();
  });

  beforeEach(() => {
    seen.length = 0;
    log.entries.length = 0;
  });

  const request = (over: Partial<PartnerRequest> = {}): PartnerRequest => ({
    partnerId: '0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    kind: 'custom_function_test',
    functionId: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    hookId: null,
    context: null,
    method: 'POST',
    url: `${base}/orders`,
    payload: '{"arguments":{"order_id":"A1"}}',
    signingSecret: secret,
    staticHeaders: { Authorization: 'Bearer partner-token' },
    timeoutMs: 2000,
    maxResponseBytes: 1000,
    ...over,
  });
  const sign = (ts: string, body: string) =>
    `v1=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;

  it('signs the body, sends the static headers and logs the request with secrets masked', async () => {
    const res = await client.send(request());
    expect(res).toMatchObject({ outcome: 'success', status: 200, body: '{"status":"shipped"}', attempts: 1 });
    const [got] = seen;
    expect(got.body).toBe('{"arguments":{"order_id":"A1"}}');
    expect(got.headers.authorization).toBe('Bearer partner-token');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-vap-signature']).toBe(sign(String(got.headers['x-vap-timestamp']), got.body));
    expect(got.headers['x-vap-request-id']).toBe(IntegrationLogId.format(res.logId));
    const [entry] = log.entries;
    expect(entry).toMatchObject({
      id: res.logId,
      kind: 'custom_function_test',
      method: 'POST',
      url: `${base}/orders`,
      requestBody: got.body,
      status: 200,
      responseBody: '{"status":"shipped"}',
      outcome: 'success',
      attempts: 1,
    });
    expect(entry.requestHeaders.authorization).toBe(MASKED_HEADER_VALUE);
    expect(entry.requestHeaders['x-vap-signature']).toBe(MASKED_HEADER_VALUE);
    expect(entry.requestHeaders['x-vap-timestamp']).toBe(got.headers['x-vap-timestamp']);
    expect(JSON.stringify(entry)).not.toContain('partner-token');
  });

  it('sends GET and DELETE without a body, the payload as a signed query parameter', async () => {
    await client.send(request({ method: 'GET', url: `${base}/orders?region=eu` }));
    const [got] = seen;
    expect(got.method).toBe('GET');
    const query = new URL(got.url, 'http://x').searchParams;
    expect(query.get('region')).toBe('eu');
    expect(query.get('payload')).toBe('{"arguments":{"order_id":"A1"}}');
    expect(got.headers['x-vap-signature']).toBe(
      sign(String(got.headers['x-vap-timestamp']), query.get('payload')!),
    );
    expect(got.headers['content-type']).toBeUndefined();
    expect(log.entries[0].url).toBe(`${base}/orders?region=eu`);
  });

  it('retries an idempotent method once after a 503, within one log entry', async () => {
    failuresLeft = 1;
    const res = await client.send(request({ method: 'PUT', url: `${base}/flaky` }));
    expect(res).toMatchObject({ outcome: 'success', status: 200, attempts: 2 });
    expect(seen).toHaveLength(2);
    expect(seen[1].headers['x-vap-request-id']).toBe(seen[0].headers['x-vap-request-id']);
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0].attempts).toBe(2);
  });

  it('never retries POST', async () => {
    failuresLeft = 1;
    const res = await client.send(request({ url: `${base}/flaky` }));
    expect(res).toMatchObject({
      outcome: 'http_error',
      status: 503,
      attempts: 1,
      error: 'the server answered HTTP 503',
    });
    expect(seen).toHaveLength(1);
  });

  it('reports a non-2xx with its body, a timeout, and cuts a large answer', async () => {
    // Made during a call: the log entries name it.
    const duringCall = {
      kind: 'custom_function' as const,
      context: {
        callId: '7d4d2c1a-5b7e-4f3a-9a51-6a1f0e2b7c11',
        browserSessionId: null,
        agentId: '5e0c1f7a-2b3d-4c5e-8f90-1a2b3c4d5e6f',
        direction: 'outbound' as const,
        fromNumber: '+14155550100',
        toNumber: '+14155550199',
        variables: {},
      },
    };
    const missing = await client.send(request({ ...duringCall, url: `${base}/missing` }));
    expect(missing).toMatchObject({
      outcome: 'http_error',
      status: 404,
      body: '{"error":"no such order"}',
    });
    const slow = await client.send(request({ ...duringCall, url: `${base}/slow`, timeoutMs: 1000 }));
    expect(slow).toMatchObject({ outcome: 'timeout', status: null, error: 'no answer within 1000 ms' });
    expect(slow.latencyMs).toBeLessThan(2500);
    // The partner's status and body reach the log entry, as does the timeout's reason.
    expect(log.entries).toEqual([
      expect.objectContaining({
        id: missing.logId,
        kind: 'custom_function',
        callId: duringCall.context.callId,
        agentId: duringCall.context.agentId,
        status: 404,
        responseBody: '{"error":"no such order"}',
        outcome: 'http_error',
        error: 'the server answered HTTP 404',
        attempts: 1,
      }),
      expect.objectContaining({
        id: slow.logId,
        kind: 'custom_function',
        callId: duringCall.context.callId,
        status: null,
        responseBody: null,
        outcome: 'timeout',
        error: 'no answer within 1000 ms',
      }),
    ]);
    const big = await client.send(request({ url: `${base}/big` }));
    expect(big).toMatchObject({ outcome: 'success', truncated: true });
    expect(big.body).toHaveLength(1000);
  });

  it('refuses a private address at connect time and logs the refusal', async () => {
    const port = new URL(base).port;
    const res = await guarded.send(request({ url: `http://localhost:${port}/orders` }));
    expect(res).toMatchObject({ outcome: 'refused', status: null, error: CONNECT_FAILED_MESSAGE });
    expect(seen).toHaveLength(0);
    expect(log.entries[0]).toMatchObject({
      outcome: 'refused',
      attempts: 1,
      status: null,
      responseBody: null,
    });
    for (const url of ['http://169.254.169.254/latest/meta-data', `http://[::127.0.0.1]:${port}/orders`]) {
      const refused = await guarded.send(request({ method: 'GET', url }));
      expect({ url, ...refused }).toMatchObject({ url, outcome: 'refused', error: CONNECT_FAILED_MESSAGE });
    }
    expect(seen).toHaveLength(0);
  });

  it('answers every failure before a connection alike: a private address, a name that does not resolve, a closed port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const port = new URL(base).port;
    for (const method of ['POST', 'GET']) {
      log.entries.length = 0;
      const answers = [
        await guarded.send(request({ method, url: `http://localhost:${port}/orders` })),
        await client.send(request({ method, url: 'http://no-such-host.invalid/orders' })),
        await client.send(request({ method, url: `http://127.0.0.1:${closedPort}/orders` })),
      ];
      const seenBy = (r: {
        outcome: string;
        status: number | null;
        error: string | null;
        attempts: number;
      }) => ({
        outcome: r.outcome,
        status: r.status,
        error: r.error,
        attempts: r.attempts,
      });
      const expected = {
        outcome: 'refused',
        status: null,
        error: CONNECT_FAILED_MESSAGE,
        // GET is retried after a failed connection, whatever the failure was; POST never.
        attempts: method === 'GET' ? 2 : 1,
      };
      expect(answers.map(seenBy)).toEqual([expected, expected, expected]);
      const logged = log.entries.map((e) => ({ ...seenBy(e), responseBody: e.responseBody }));
      expect(logged).toEqual([0, 1, 2].map(() => ({ ...expected, responseBody: null })));
    }
    expect(seen).toHaveLength(0);
  });

  it('refuses a GET whose URL would be too long without sending it', async () => {
    const res = await client.send(
      request({ method: 'GET', payload: JSON.stringify({ a: 'x'.repeat(20_000) }) }),
    );
    expect(res).toMatchObject({ outcome: 'refused', attempts: 0 });
    expect(res.error).toMatch(/use POST/);
    expect(seen).toHaveLength(0);
  });
});
