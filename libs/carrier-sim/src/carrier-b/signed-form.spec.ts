import { createHmac } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { CARRIER_B_SIGNATURE_HEADER, postSignedForm } from './signed-form';

const TOKEN = 'a-carrier-auth-token-of-32-characters';

interface Received {
  path: string;
  signature: string;
  contentType: string;
  form: Record<string, string>;
}

/** carrier_b's scheme written out here, as a receiver checks it: HMAC-SHA1 over URL + sorted name+value. */
function expectedSignature(url: string, form: Record<string, string>): string {
  const data = Object.keys(form)
    .sort()
    .reduce((acc, k) => acc + k + form[k], url);
  return createHmac('sha1', TOKEN).update(data).digest('base64');
}

describe('postSignedForm', () => {
  let server: Server;
  let base: string;
  const received: Received[] = [];
  let reply: (res: ServerResponse, attempt: number) => void;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          signature: String(req.headers[CARRIER_B_SIGNATURE_HEADER.toLowerCase()] ?? ''),
          contentType: String(req.headers['content-type'] ?? ''),
          form: Object.fromEntries(new URLSearchParams(body)),
        });
        reply(res, received.length);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    received.length = 0;
    reply = (res) => res.writeHead(204).end();
  });

  const fields = { CallSid: 'CA0123', CallStatus: 'ringing', From: '+15550001111' };

  it('posts the fields form-encoded, signed over the URL as given', async () => {
    const url = `${base}/callbacks/sandbox/c1/status?x=1`;
    const result = await postSignedForm({ url, authToken: TOKEN, fields });
    expect(result.status).toBe(204);
    expect(received).toEqual([
      {
        path: '/callbacks/sandbox/c1/status?x=1',
        signature: expectedSignature(url, fields),
        contentType: 'application/x-www-form-urlencoded',
        form: fields,
      },
    ]);
  });

  it('delivers to another address of the receiver, still signed for the public URL', async () => {
    const url = 'https://api.example.com/callbacks/sandbox/c1/status';
    await postSignedForm({ url, target: `${base}/callbacks/sandbox/c1/status`, authToken: TOKEN, fields });
    expect(received).toHaveLength(1);
    expect(received[0].path).toBe('/callbacks/sandbox/c1/status');
    expect(received[0].signature).toBe(expectedSignature(url, fields));
  });

  it("returns the receiver's reply (an answer URL's markup)", async () => {
    reply = (res) => res.writeHead(200, { 'content-type': 'text/xml' }).end('<Response><Hangup/></Response>');
    const result = await postSignedForm({ url: `${base}/answer`, authToken: TOKEN, fields });
    expect(result).toEqual({ status: 200, contentType: 'text/xml', body: '<Response><Hangup/></Response>' });
  });

  it('retries a 5xx up to its attempts, not a 4xx', async () => {
    reply = (res, attempt) => res.writeHead(attempt < 2 ? 503 : 204).end();
    expect((await postSignedForm({ url: `${base}/s`, authToken: TOKEN, fields, attempts: 3 })).status).toBe(
      204,
    );
    expect(received).toHaveLength(2);

    received.length = 0;
    reply = (res) => res.writeHead(403).end();
    expect((await postSignedForm({ url: `${base}/s`, authToken: TOKEN, fields, attempts: 3 })).status).toBe(
      403,
    );
    expect(received).toHaveLength(1);
  });

  it('cuts a reply off at 64 KiB', async () => {
    reply = (res) => res.writeHead(200, { 'content-type': 'text/xml' }).end('x'.repeat(200 * 1024));
    const result = await postSignedForm({ url: `${base}/answer`, authToken: TOKEN, fields });
    expect(result.body.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('rejects once every attempt failed to connect', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(
      postSignedForm({ url: `http://127.0.0.1:${port}/s`, authToken: TOKEN, fields, attempts: 2 }),
    ).rejects.toThrow();
  });
});
