import { request } from 'node:http';
import { readBody, sendJson, startFakeServer } from './fake-http-server';

describe('startFakeServer', () => {
  it('answers on 127.0.0.1 with what the handler sends, a bounded body, and 500 when the handler throws', async () => {
    const server = await startFakeServer({
      request: async (req, res, url) => {
        const body = await readBody(req, 8);
        sendJson(res, 200, { path: url.pathname, body: body.toString('utf8') });
      },
    });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.wsUrl).toBe(server.url.replace('http', 'ws'));
      const ok = await fetch(`${server.url}/v1/x?q=1`, { method: 'POST', body: 'hello' });
      expect(await ok.json()).toEqual({ path: '/v1/x', body: 'hello' });
      const tooLarge = await fetch(server.url, { method: 'POST', body: 'more than eight bytes' });
      expect(tooLarge.status).toBe(500);
      expect(await tooLarge.json()).toEqual({ error: { message: 'body over 8 bytes' } });
    } finally {
      await server.close();
    }
  });

  it('closes without waiting for a request the handler never answers', async () => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const server = await startFakeServer({ request: () => received() });
    const req = request(server.url);
    const ended = new Promise<string>((resolve) =>
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? '')),
    );
    req.end();
    await arrived;
    await server.close();
    expect(await ended).toBe('ECONNRESET');
  });
});
