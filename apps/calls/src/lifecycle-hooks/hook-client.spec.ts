import { createServer, Server } from 'node:https';
import { AddressInfo, createServer as createTcpServer } from 'node:net';
import { CONNECT_FAILED_MESSAGE } from '@vap/egress';
import { INTEGRATION_LOG_EXCERPT_CHARS, MASKED_HEADER_VALUE } from '@vap/messages';
import { HookExchange, integrationLogEntry } from '../integration-log/integration-log-entry';
import { HookClient } from './hook-client';
import { storedResponse } from './post-call-hook.worker';

describe('HookClient behind the private-network guard', () => {
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  let server: Server;
  let port: number;
  let client: HookClient;
  let received = 0;

  beforeAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    server = createServer((_req, res) => {
      received++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    client = new HookClient();
  });

  afterAll(async () => {
    if (saved !== undefined) process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = saved;
    await client.onModuleDestroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (url: string) =>
    client.send({
      url,
      secret: 'hksec_test',
      event: 'pre_call',
      hookId: 'hook_x',
      body: { a: 1 },
      timeoutMs: 1000,
    });

  it('refuses a private address without sending, and says so as an outcome', async () => {
    const exchange = await send(`https://localhost:${port}/pre`);
    expect(exchange).toMatchObject({ outcome: 'refused', status: null, body: null, requestBody: '{"a":1}' });
    expect(exchange.error).toBe(CONNECT_FAILED_MESSAGE);
    expect(received).toBe(0);
  });

  it('answers a name that does not resolve exactly as a private address: the log maps no internal names', async () => {
    const privateAddress = await send(`https://localhost:${port}/pre`);
    const unresolvable = await send('https://no-such-host.invalid/pre');
    for (const exchange of [privateAddress, unresolvable])
      expect({ outcome: exchange.outcome, status: exchange.status, error: exchange.error }).toEqual({
        outcome: 'refused',
        status: null,
        error: CONNECT_FAILED_MESSAGE,
      });
  });

  it('answers a closed port exactly as a private address where private networks are allowed', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
    const allowed = new HookClient();
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    // A port that was free a moment ago: nothing listens there.
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    try {
      const exchange = await allowed.send({
        url: `https://127.0.0.1:${closedPort}/pre`,
        secret: 'hksec_test',
        event: 'pre_call',
        hookId: 'hook_x',
        body: { a: 1 },
        timeoutMs: 1000,
      });
      expect({ outcome: exchange.outcome, error: exchange.error }).toEqual({
        outcome: 'refused',
        error: CONNECT_FAILED_MESSAGE,
      });
    } finally {
      await allowed.onModuleDestroy();
    }
  });

  it('refuses a URL that is not HTTPS', async () => {
    expect(await send(`http://localhost:${port}/pre`)).toMatchObject({ outcome: 'refused' });
    expect(received).toBe(0);
  });

  it('signs the request and masks the signature in what it keeps', async () => {
    const exchange = await send(`https://localhost:${port}/pre`);
    expect(exchange.requestHeaders).toMatchObject({
      'content-type': 'application/json',
      'x-vap-event': 'pre_call',
      'x-vap-hook-id': 'hook_x',
      'x-vap-timestamp': expect.stringMatching(/^\d{13}$/),
      'x-vap-signature': MASKED_HEADER_VALUE,
    });
  });
});

describe('integrationLogEntry', () => {
  const exchange: HookExchange = {
    outcome: 'http_error',
    status: 500,
    body: 'x'.repeat(INTEGRATION_LOG_EXCERPT_CHARS + 10),
    error: 'HTTP 500',
    latencyMs: 12,
    startedAt: new Date('2026-01-01T00:00:00.000Z'),
    requestHeaders: { 'x-vap-signature': MASKED_HEADER_VALUE },
    requestBody: '{"a":1}',
  };

  it('keeps excerpts of the bodies and names what the request was for', () => {
    const entry = integrationLogEntry(
      { partnerId: 'p', kind: 'post_call_hook', hookId: 'hook_x', callId: 'c', agentId: 'a', attempts: 3 },
      'https://partner.example/post',
      exchange,
    );
    expect(entry).toMatchObject({
      partnerId: 'p',
      kind: 'post_call_hook',
      hookId: 'hook_x',
      callId: 'c',
      agentId: 'a',
      functionId: null,
      browserSessionId: null,
      method: 'POST',
      url: 'https://partner.example/post',
      requestBody: '{"a":1}',
      status: 500,
      outcome: 'http_error',
      error: 'HTTP 500',
      latencyMs: 12,
      attempts: 3,
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(entry.responseBody).toHaveLength(INTEGRATION_LOG_EXCERPT_CHARS);
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('storedResponse', () => {
  it('keeps the answer text up to 4096 characters, and null for an empty answer', () => {
    expect(storedResponse({ body: '{"crm_id":"X"}' })).toBe('{"crm_id":"X"}');
    expect(storedResponse({ body: 'y'.repeat(5000) })).toHaveLength(4096);
    expect(storedResponse({ body: '  ' })).toBeNull();
    expect(storedResponse({ body: null })).toBeNull();
  });
});
