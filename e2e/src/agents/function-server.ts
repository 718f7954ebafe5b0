import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';

export interface FunctionRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** How the fake partner answers a path: a status and a body, after a delay. */
export interface Answer {
  status: number;
  body: string;
  contentType?: string;
  delayMs?: number;
}

export interface FunctionServer {
  /** https://127.0.0.1:<port>, trusted by the apps through the run's test CA. */
  url: string;
  requests: FunctionRequest[];
  /**
   * Sets the answer of a path (the default answer: 200 {"ok":true}); a function answers each request by what it
   * asked (a partner's model server answering a conversation).
   */
  answer(path: string, answer: Answer | ((req: FunctionRequest) => Answer)): void;
  close(): Promise<void>;
}

/**
 * A partner's HTTPS server for custom functions: records every request and answers each path as told.
 * Only this, the partner's side, is faked; the platform under test makes real requests to it.
 */
export async function startFunctionServer(): Promise<FunctionServer> {
  const certFile = process.env.E2E_TLS_CERT;
  const keyFile = process.env.E2E_TLS_KEY;
  if (!certFile || !keyFile)
    throw new Error('E2E_TLS_CERT/E2E_TLS_KEY are not set (the e2e setup makes them)');
  const requests: FunctionRequest[] = [];
  const answers = new Map<string, Answer | ((req: FunctionRequest) => Answer)>();
  const server: Server = createServer(
    { cert: readFileSync(certFile), key: readFileSync(keyFile) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const received: FunctionRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
        };
        requests.push(received);
        const path = new URL(req.url ?? '/', 'https://x').pathname;
        const given = answers.get(path) ?? { status: 200, body: '{"ok":true}' };
        const answer = typeof given === 'function' ? given(received) : given;
        const send = () => {
          if (res.destroyed) return;
          res
            .writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' })
            .end(answer.body);
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    answer: (path, answer) => answers.set(path, answer),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Checks a request's signature as the docs tell partners to: HMAC-SHA256 keyed with the signing secret over
 * `<X-Vap-Timestamp>.<raw body>` (for GET and DELETE the `payload` query parameter), compared in constant time.
 */
export function signatureValid(req: FunctionRequest, secret: string): boolean {
  const timestamp = String(req.headers['x-vap-timestamp']);
  const signed =
    req.method === 'GET' || req.method === 'DELETE'
      ? (new URL(req.url, 'https://x').searchParams.get('payload') ?? '')
      : req.rawBody;
  const given = Buffer.from(String(req.headers['x-vap-signature']));
  const expected = Buffer.from(
    `v1=${createHmac('sha256', secret).update(`${timestamp}.${signed}`).digest('hex')}`,
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}
