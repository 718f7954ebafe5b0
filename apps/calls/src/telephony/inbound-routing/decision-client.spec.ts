import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { INBOUND_ROUTE_ACTIONS } from '@vap/api';
import { CONNECT_FAILED_MESSAGE } from '@vap/egress';
import { MASKED_HEADER_VALUE } from '@vap/messages';
import { DecisionClient } from './decision-client';

// What a refused decision request leaves in the decision log's failure_reason, which the partner reads:
// never the address a name resolved to inside the platform's network.
describe('DecisionClient behind the private-network guard', () => {
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  let server: Server;
  let port: number;
  let client: DecisionClient;

  beforeAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    server = createServer((_req, res) => res.end('{"action":"ANSWER_WITH_AI"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    client = new DecisionClient();
  });

  afterAll(async () => {
    if (saved !== undefined) process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = saved;
    await client.onModuleDestroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('records a failure that names no resolved address', async () => {
    const body = {} as Parameters<DecisionClient['ask']>[1];
    const outcome = await client.ask(
      `https://localhost:${port}/route`,
      body,
      null,
      2000,
      INBOUND_ROUTE_ACTIONS,
    );
    expect(outcome).toMatchObject({ ok: false, status: null });
    const reason = (outcome as { reason: string }).reason;
    expect(reason).toBe(`request failed: ${CONNECT_FAILED_MESSAGE}`);
    // The integration log sees the refusal as such, with the request as sent and no answer.
    expect(outcome.exchange).toMatchObject({
      outcome: 'refused',
      status: null,
      responseBody: null,
      requestBody: '{}',
    });
  });

  it('records a name that does not resolve exactly as a private address', async () => {
    const body = {} as Parameters<DecisionClient['ask']>[1];
    const outcome = await client.ask(
      'https://no-such-host.invalid/route',
      body,
      null,
      2000,
      INBOUND_ROUTE_ACTIONS,
    );
    expect(outcome).toMatchObject({
      ok: false,
      status: null,
      reason: `request failed: ${CONNECT_FAILED_MESSAGE}`,
      exchange: { outcome: 'refused' },
    });
  });

  it('describes the refused request for the integration log, its signature masked', async () => {
    const body = { event: 'inbound.route' } as Parameters<DecisionClient['ask']>[1];
    const url = `https://localhost:${port}/route`;
    const outcome = await client.ask(url, body, 'decision-secret-0123456789', 2000, INBOUND_ROUTE_ACTIONS);
    expect(outcome.exchange).toEqual({
      url,
      startedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      requestHeaders: {
        'content-type': 'application/json',
        'x-vap-event': 'inbound.route',
        'x-vap-timestamp': expect.stringMatching(/^\d+$/),
        'x-vap-signature': MASKED_HEADER_VALUE,
      },
      requestBody: JSON.stringify(body),
      status: null,
      responseBody: null,
      outcome: 'refused',
      latencyMs: expect.any(Number),
    });
    expect(JSON.stringify(outcome.exchange)).not.toContain('v1=');
  });

  it('refuses a URL that is not HTTPS without sending anything, and says so', async () => {
    const body = {} as Parameters<DecisionClient['ask']>[1];
    const outcome = await client.ask(
      `http://localhost:${port}/route`,
      body,
      null,
      2000,
      INBOUND_ROUTE_ACTIONS,
    );
    expect(outcome).toMatchObject({ ok: false, reason: 'request failed: decision URL is not HTTPS' });
    expect(outcome.exchange).toMatchObject({ outcome: 'refused', status: null, responseBody: null });
    expect(outcome.exchange.requestHeaders['x-vap-signature']).toBeUndefined();
  });
});
