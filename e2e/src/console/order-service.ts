/**
 * A partner's order service for the console's browser specs: HTTPS on 127.0.0.1 with the run's test CA (as a
 * developer's local service would be, trusted through NODE_EXTRA_CA_CERTS), answering the platform's custom
 * function requests (docs/custom-functions.md, "Verifying the signature") only when their X-Vap-Signature
 * verifies with the signing secret the person copied from the console.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';

export interface OrderService {
  url: string;
  /** The function's signing secret, as the person pastes it into the service's configuration. */
  useSecret(secret: string): void;
  /** Requests whose signature verified, with the arguments they carried. */
  answered: { orderNumber: string; test: boolean }[];
  refused: number;
  close(): Promise<void>;
}

const ORDERS: Record<string, { status: string; delivery: string }> = {
  '12345': { status: 'shipped', delivery: 'Tuesday' },
};

export async function startOrderService(): Promise<OrderService> {
  const certFile = process.env.E2E_TLS_CERT;
  const keyFile = process.env.E2E_TLS_KEY;
  if (!certFile || !keyFile)
    throw new Error('E2E_TLS_CERT/E2E_TLS_KEY are not set: the e2e setup needs openssl');
  let secret: string | null = null;
  const answered: OrderService['answered'] = [];
  let refused = 0;
  const server: Server = createServer(
    { cert: readFileSync(certFile), key: readFileSync(keyFile) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const timestamp = String(req.headers['x-vap-timestamp'] ?? '');
        const given = Buffer.from(String(req.headers['x-vap-signature'] ?? ''));
        const expected = Buffer.from(
          `v1=${createHmac('sha256', secret ?? '')
            .update(`${timestamp}.${raw}`)
            .digest('hex')}`,
        );
        const fresh = Math.abs(Date.now() - Number(timestamp)) < 5 * 60 * 1000;
        if (!secret || given.length !== expected.length || !timingSafeEqual(given, expected) || !fresh) {
          refused += 1;
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad signature"}');
          return;
        }
        const body = JSON.parse(raw) as { arguments?: { order_number?: unknown }; test?: boolean };
        const orderNumber = String(body.arguments?.order_number ?? '');
        answered.push({ orderNumber, test: body.test === true });
        const order = ORDERS[orderNumber];
        res
          .writeHead(order ? 200 : 404, { 'content-type': 'application/json' })
          .end(JSON.stringify(order ? { order_number: orderNumber, ...order } : { error: 'no such order' }));
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/orders/lookup`,
    useSecret: (s) => {
      secret = s;
    },
    answered,
    get refused() {
      return refused;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
