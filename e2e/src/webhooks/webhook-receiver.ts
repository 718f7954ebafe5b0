import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { AddressInfo } from 'node:net';
import { waitFor } from '@vap/testing';

export interface WebhookRequest {
  /** The request path: specs give each endpoint a path of its own on one receiver. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  receivedAt: number;
}

/** How the receiver answers one request: status (default 200), headers, and an optional delay first. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * A partner's webhook receiver over HTTPS with the run's test certificate: records every request and
 * answers what `answer` says, so specs can make an endpoint fail, stall or ask for Retry-After.
 */
export class WebhookReceiver {
  readonly requests: WebhookRequest[] = [];
  answer: (req: WebhookRequest, n: number) => Answer = () => ({});

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const certFile = process.env.E2E_TLS_CERT;
    const keyFile = process.env.E2E_TLS_KEY;
    if (!certFile || !keyFile)
      throw new Error('E2E_TLS_CERT/E2E_TLS_KEY are not set (the e2e setup needs openssl)');
    // The handler needs the receiver, which needs the listening server: filled in below.
    const ref: { receiver?: WebhookReceiver } = {};
    const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(rawBody);
        } catch {
          json = undefined;
        }
        const request = { path: req.url ?? '', headers: req.headers, rawBody, json, receivedAt: Date.now() };
        const receiver = ref.receiver!;
        receiver.requests.push(request);
        const answer = receiver.answer(request, receiver.requests.length);
        const reply = () => {
          if (res.destroyed) return;
          res
            .writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers })
            .end('{"received":true}');
        };
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    ref.receiver = new WebhookReceiver(server, `https://127.0.0.1:${port}`);
    return ref.receiver;
  }

  /** The URL of one endpoint's path on this receiver. */
  at(path: string): string {
    return `${this.url}/${path}`;
  }

  /** Requests that arrived on `path`. */
  on(path: string): WebhookRequest[] {
    return this.requests.filter((r) => r.path === `/${path}`);
  }

  /** Requests whose body has this event type and, optionally, matches `where`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  of(event: string, where: (data: any) => boolean = () => true): WebhookRequest[] {
    return this.requests.filter((r) => r.json?.event === event && where(r.json.data));
  }

  async waitFor(
    count: number,
    filter: (r: WebhookRequest) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<WebhookRequest[]> {
    return waitFor(
      () => {
        const found = this.requests.filter(filter);
        return found.length >= count ? found : undefined;
      },
      { timeoutMs, description: `${count} webhook request(s) at ${this.url}` },
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/**
 * Verifies a request the way a partner's receiver should: recompute HMAC-SHA256 over
 * "<X-Webhook-Timestamp>.<raw body>" with the secret, compare in constant time, and refuse a timestamp more
 * than five minutes away. Written here from the contract, independently of the platform's code.
 */
export function verifySignature(
  req: WebhookRequest,
  secret: string,
  header = 'x-webhook-signature',
): boolean {
  const timestamp = req.headers['x-webhook-timestamp'];
  const signature = req.headers[header];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const sentAt = Date.parse(timestamp);
  if (Number.isNaN(sentAt) || Math.abs(Date.now() - sentAt) > 5 * 60_000) return false;
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(`${timestamp}.${req.rawBody}`).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
