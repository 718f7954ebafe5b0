import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Platform } from '@vap/testing';
import { api, e2eEnv, OwnPlatform, startOwnPlatform } from '../../support';

interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** A minimal OTLP/HTTP JSON collector: keeps every span it is sent. */
function startCollector(): Promise<{ server: Server; url: string; spans: CollectedSpan[] }> {
  const spans: CollectedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value
          ?.stringValue;
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, spans, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/** Gateway -> NATS -> agents, traced into one trace when an OTLP endpoint is configured. */
describe('distributed tracing', () => {
  const env = e2eEnv();
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let own: OwnPlatform;
  let platform: Platform;

  beforeAll(async () => {
    collector = await startCollector();
    own = await startOwnPlatform({
      name: 'tracing',
      services: ['agents'],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100' },
    });
    platform = own.platform;
  }, 90_000);

  afterAll(async () => {
    await own?.stop();
    collector?.server.close();
  });

  async function spansOf(traceId: string, count: number): Promise<CollectedSpan[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = collector.spans.filter((s) => s.traceId === traceId);
      if (found.length >= count || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('continues the caller’s trace through the gateway, the NATS command and the service', async () => {
    const base = platform.gatewayUrl;
    const partner = await api('/admin/v1/partners', {
      key: env.adminToken,
      baseUrl: base,
      body: { name: 'Traced Co' },
    });
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const res = await api('/api/v2/agent', {
      key: partner.body.data.api_key,
      baseUrl: base,
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(res.status).toBe(200);

    const spans = await spansOf(traceId, 3);
    const http = spans.find((s) => s.service === 'gateway' && s.name === 'HTTP GET /api/v2/agent');
    const client = spans.find((s) => s.service === 'gateway' && s.name === 'nats request agents.agent.list');
    const server = spans.find((s) => s.service === 'agents' && s.name === 'nats handle agents.agent.list');
    expect(http?.parentSpanId).toBe(callerSpan);
    expect(client?.parentSpanId).toBe(http?.spanId);
    expect(server?.parentSpanId).toBe(client?.spanId);
  });
});
