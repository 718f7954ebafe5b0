import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { AddressInfo } from 'node:net';
import { waitFor } from '@vap/testing';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed by the sender. */
  rawBody: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  receivedAt: Date;
}

export interface HttpsReceiver {
  /** https://127.0.0.1:<port>, trusted by the apps through the run's test CA. */
  url: string;
  requests: ReceivedRequest[];
  /** Status the receiver answers with (default 200); change it to exercise retries. */
  respondWith(status: number): void;
  /** Resolves once at least `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1 that records what it receives, e.g. as a webhook endpoint. */
export async function startHttpsReceiver(): Promise<HttpsReceiver> {
  const certFile = process.env.E2E_TLS_CERT;
  const keyFile = process.env.E2E_TLS_KEY;
  if (!certFile || !keyFile) {
    throw new Error(
      'E2E_TLS_CERT/E2E_TLS_KEY are not set: the e2e setup needs the openssl CLI to make a test CA',
    );
  }
  const requests: ReceivedRequest[] = [];
  let status = 200;
  const server: Server = createServer(
    { cert: readFileSync(certFile), key: readFileSync(keyFile) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = rawBody ? JSON.parse(rawBody) : undefined;
        } catch {
          json = undefined;
        }
        requests.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          rawBody,
          json,
          receivedAt: new Date(),
        });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
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
    respondWith: (next) => {
      status = next;
    },
    waitForRequests: (count, timeoutMs = 15_000) =>
      waitFor(() => (requests.length >= count ? requests.slice() : undefined), {
        timeoutMs,
        description: `${count} request(s) at the receiver (got ${requests.length})`,
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
