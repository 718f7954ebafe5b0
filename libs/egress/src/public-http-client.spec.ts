// The client against a real HTTP server on 127.0.0.1: the guard refuses it unless private networks are allowed.
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { PrivateNetworkError, PrivateNetworkGuard } from './private-network-guard';
import {
  FetchTimeoutError,
  PublicHttpClient,
  ResponseTooLargeError,
  UnsupportedUrlError,
} from './public-http-client';

describe('PublicHttpClient', () => {
  let server: Server;
  let base: string;
  const opts = { timeoutMs: 2000, maxBytes: 1000 };
  const strict = new PublicHttpClient(new PrivateNetworkGuard({ allowPrivateNetworks: false }));
  const open = new PublicHttpClient(new PrivateNetworkGuard({ allowPrivateNetworks: true }));

  beforeAll(async () => {
    server = createServer((req, res) => {
      switch (req.url) {
        case '/page':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>hello</p>');
          return;
        case '/big':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('x'.repeat(800));
          res.end('y'.repeat(800));
          return;
        case '/redirect':
          res.writeHead(302, { location: '/page' }).end();
          return;
        case '/redirect-private':
          res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
          return;
        case '/echo': {
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () =>
            res.writeHead(201, { 'content-type': 'application/json' }).end(
              JSON.stringify({
                method: req.method,
                type: req.headers['content-type'],
                body: Buffer.concat(chunks).toString(),
              }),
            ),
          );
          return;
        }
        case '/slow':
          setTimeout(() => res.writeHead(200).end('late'), 1500);
          return;
        default:
          res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await strict.close();
    await open.close();
  });

  it('refuses a loopback literal and a name that resolves to loopback', async () => {
    await expect(strict.get(`${base}/page`, opts)).rejects.toBeInstanceOf(PrivateNetworkError);
    const port = new URL(base).port;
    await expect(strict.get(`http://localhost:${port}/page`, opts)).rejects.toThrow(/not a public address/);
  });

  it('fetches when private networks are allowed, following redirects', async () => {
    const res = await open.get(`${base}/redirect`, opts);
    expect(res).toMatchObject({
      url: `${base}/page`,
      status: 200,
      contentType: 'text/html',
      charset: 'utf-8',
    });
    expect(res.body.toString()).toBe('<p>hello</p>');
  });

  it('checks every redirect hop', async () => {
    // Lets the test server's own literal through, so that only the redirect target is judged.
    class TestServerGuard extends PrivateNetworkGuard {
      override assertHostAllowed(host: string): void {
        if (host !== '127.0.0.1') super.assertHostAllowed(host);
      }
    }
    const client = new PublicHttpClient(new TestServerGuard({ allowPrivateNetworks: false }));
    await expect(client.get(`${base}/redirect`, opts)).resolves.toMatchObject({ status: 200 });
    await expect(client.get(`${base}/redirect-private`, opts)).rejects.toThrow(
      'refusing to connect: the target is not allowed (not a public address)',
    );
    await client.close();
  });

  it('cuts off a body over the limit', async () => {
    await expect(open.get(`${base}/big`, opts)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('fails with a timeout instead of hanging', async () => {
    await expect(open.get(`${base}/slow`, { ...opts, timeoutMs: 300 })).rejects.toBeInstanceOf(
      FetchTimeoutError,
    );
  });

  it('fetches only http and https', async () => {
    await expect(open.get('file:///etc/passwd', opts)).rejects.toBeInstanceOf(UnsupportedUrlError);
    await expect(open.get('ftp://example.com/x', opts)).rejects.toBeInstanceOf(UnsupportedUrlError);
    await expect(open.get(`http://user:pw@127.0.0.1/`, opts)).rejects.toBeInstanceOf(UnsupportedUrlError);
  });

  describe('post', () => {
    const json = { ...opts, headers: { 'content-type': 'application/json' } };

    it('sends the body and returns the answer', async () => {
      const res = await open.post(`${base}/echo`, '{"a":1}', json);
      expect(res.status).toBe(201);
      expect(JSON.parse(res.body.toString())).toEqual({
        method: 'POST',
        type: 'application/json',
        body: '{"a":1}',
      });
    });

    it('does not follow redirects', async () => {
      await expect(open.post(`${base}/redirect`, '{}', json)).resolves.toMatchObject({ status: 302 });
    });

    it('refuses private targets, times out and bounds the answer like get', async () => {
      await expect(strict.post(`${base}/echo`, '{}', json)).rejects.toBeInstanceOf(PrivateNetworkError);
      await expect(open.post(`${base}/slow`, '{}', { ...json, timeoutMs: 300 })).rejects.toBeInstanceOf(
        FetchTimeoutError,
      );
      await expect(open.post(`${base}/big`, '{}', json)).rejects.toBeInstanceOf(ResponseTooLargeError);
    });
  });

  describe('send', () => {
    it('sends any method with its body and does not follow redirects', async () => {
      const res = await open.send('PUT', `${base}/echo`, { ...opts, body: '{"b":2}' });
      expect(JSON.parse(res.body.toString())).toMatchObject({ method: 'PUT', body: '{"b":2}' });
      expect(res.truncated).toBe(false);
      const del = await open.send('DELETE', `${base}/echo`, opts);
      expect(JSON.parse(del.body.toString())).toMatchObject({ method: 'DELETE', body: '' });
      await expect(open.send('GET', `${base}/redirect`, opts)).resolves.toMatchObject({ status: 302 });
    });

    it('cuts an answer over the limit when asked to, and fails on it otherwise', async () => {
      const res = await open.send('GET', `${base}/big`, { ...opts, truncate: true });
      expect(res).toMatchObject({ status: 200, truncated: true });
      expect(res.body.toString()).toBe('x'.repeat(800) + 'y'.repeat(200));
      await expect(open.send('GET', `${base}/big`, opts)).rejects.toBeInstanceOf(ResponseTooLargeError);
    });

    it('refuses private targets at connect time and times out', async () => {
      const port = new URL(base).port;
      await expect(strict.send('POST', `http://localhost:${port}/echo`, opts)).rejects.toThrow(
        /not a public address/,
      );
      await expect(
        open.send('GET', `${base}/slow`, { ...opts, timeoutMs: 300, truncate: true }),
      ).rejects.toBeInstanceOf(FetchTimeoutError);
    });
  });
});
