import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { KnowledgeConfig } from '../../config/knowledge.config';
import { PermanentJobError } from '../jobs/kb-job';
import { WebPageFetcher } from './web-page-fetcher';

// What a refused fetch leaves in a link's index_error, which the partner reads: never the address a name
// resolved to inside the platform's network.
describe('WebPageFetcher behind the private-network guard', () => {
  let server: Server;
  let port: number;
  let fetcher: WebPageFetcher;

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('secret'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    fetcher = new WebPageFetcher(Object.assign(new KnowledgeConfig(), { KB_FETCH_TIMEOUT_MS: 5000 }));
  });

  afterAll(async () => {
    await fetcher.onApplicationShutdown();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails permanently with a message that names no resolved address', async () => {
    const refused = await fetcher.fetch(`http://localhost:${port}/page`).catch((err: Error) => err);
    expect(refused).toBeInstanceOf(PermanentJobError);
    expect((refused as Error).message).toMatch(/not allowed/);
    expect((refused as Error).message).not.toMatch(/127\.0\.0\.1|::1/);
  });
});
