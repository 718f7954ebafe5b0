import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { INTEGRATION_LOG_EXCERPT_CHARS, IntegrationLogEntry } from '@vap/messages';
import { KnowledgeConfig } from '../../config/knowledge.config';
import { IntegrationLogWriter } from '../../integration-logs/integration-log.writer';
import { PermanentJobError } from '../jobs/kb-job';
import { WebPageFetcher } from './web-page-fetcher';

const ORIGIN = {
  partnerId: '6d0b3f0c-6a0e-4a8e-9a55-0d7f4c1f2b11',
  agentId: '7e1c4f1d-7b1f-4b9f-8a66-1e8f5d2f3c22',
};

/** The entries a fetcher logs, kept in memory (the writer's table is tested with the read API). */
function recordingWriter(): { writer: IntegrationLogWriter; entries: IntegrationLogEntry[] } {
  const entries: IntegrationLogEntry[] = [];
  const writer = {
    record: (entry: IntegrationLogEntry) => Promise.resolve(void entries.push(entry)),
  } as unknown as IntegrationLogWriter;
  return { writer, entries };
}

describe('WebPageFetcher', () => {
  let server: Server;
  let port: number;
  const long = 'x'.repeat(INTEGRATION_LOG_EXCERPT_CHARS * 2);

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/page') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('secret');
      if (req.url === '/long') return void res.writeHead(200, { 'content-type': 'text/html' }).end(long);
      if (req.url === '/pdf')
        return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 binary');
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  // What a refused fetch leaves in a link's index_error, which the partner reads: never the address a name
  // resolved to inside the platform's network.
  describe('behind the private-network guard', () => {
    const { writer, entries } = recordingWriter();
    const fetcher = new WebPageFetcher(
      Object.assign(new KnowledgeConfig(), { KB_FETCH_TIMEOUT_MS: 5000 }),
      writer,
    );
    afterAll(() => fetcher.onApplicationShutdown());

    it('fails permanently with a message that names no resolved address, and logs the refusal', async () => {
      const url = `http://localhost:${port}/page`;
      const refused = await fetcher.fetch(url, ORIGIN).catch((err: Error) => err);
      expect(refused).toBeInstanceOf(PermanentJobError);
      expect((refused as Error).message).toMatch(/not allowed/);
      expect((refused as Error).message).not.toMatch(/127\.0\.0\.1|::1/);
      expect(entries).toEqual([
        expect.objectContaining({
          kind: 'knowledge_fetch',
          partnerId: ORIGIN.partnerId,
          agentId: ORIGIN.agentId,
          callId: null,
          method: 'GET',
          url,
          status: null,
          responseBody: null,
          outcome: 'refused',
          error: expect.stringMatching(/not allowed/),
          attempts: 1,
        }),
      ]);
      expect(entries[0].error).not.toMatch(/127\.0\.0\.1|::1/);
    });
  });

  describe('with private networks allowed', () => {
    const { writer, entries } = recordingWriter();
    const fetcher = new WebPageFetcher(
      Object.assign(new KnowledgeConfig(), { KB_FETCH_TIMEOUT_MS: 5000, KB_ALLOW_PRIVATE_NETWORKS: true }),
      writer,
    );
    afterAll(() => fetcher.onApplicationShutdown());
    const last = () => entries[entries.length - 1];

    it('logs a fetched page with its status, headers, latency and the answer', async () => {
      const page = await fetcher.fetch(`http://127.0.0.1:${port}/page`, ORIGIN);
      expect(page.bytes.toString()).toBe('secret');
      expect(last()).toMatchObject({
        status: 200,
        outcome: 'success',
        error: null,
        responseBody: 'secret',
        requestBody: null,
        requestHeaders: {
          'user-agent': expect.stringContaining('KnowledgeBase'),
          accept: expect.any(String),
        },
      });
      expect(last().latencyMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(last().startedAt)).not.toBeNaN();
      expect(last().id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('keeps an excerpt of a long page, and no body of a PDF', async () => {
      await fetcher.fetch(`http://127.0.0.1:${port}/long`, ORIGIN);
      expect(last().responseBody).toBe(long.slice(0, INTEGRATION_LOG_EXCERPT_CHARS));
      await fetcher.fetch(`http://127.0.0.1:${port}/pdf`, ORIGIN);
      expect(last()).toMatchObject({ status: 200, outcome: 'success', responseBody: null });
    });

    it('logs an error status as http_error before failing the fetch', async () => {
      const failed = await fetcher.fetch(`http://127.0.0.1:${port}/missing`, ORIGIN).catch((e: Error) => e);
      expect(failed).toBeInstanceOf(PermanentJobError);
      expect(last()).toMatchObject({
        status: 404,
        outcome: 'http_error',
        error: 'the page answered HTTP 404',
        responseBody: 'no such page',
      });
    });
  });
});
