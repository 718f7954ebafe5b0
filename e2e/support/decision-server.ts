import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';

export interface DecisionRequest {
  headers: IncomingHttpHeaders;
  rawBody: string;
  json: unknown;
}

export interface DecisionAnswer {
  status?: number;
  /** Sent as is when a string, else as JSON. */
  body: unknown;
  delayMs?: number;
}

export interface DecisionServer {
  /** https://127.0.0.1:<port>; the apps trust it through the run's test CA. */
  url: string;
  requests: DecisionRequest[];
  /** What the next requests get (until changed). */
  answerWith(answer: DecisionAnswer): void;
  close(): Promise<void>;
}

/** A partner's inbound-routing decision URL: records each inbound.route request and answers as told. */
export async function startDecisionServer(): Promise<DecisionServer> {
  const certFile = process.env.E2E_TLS_CERT;
  const keyFile = process.env.E2E_TLS_KEY;
  if (!certFile || !keyFile)
    throw new Error('E2E_TLS_CERT/E2E_TLS_KEY are not set: the e2e setup needs openssl');
  const requests: DecisionRequest[] = [];
  let answer: DecisionAnswer = { body: { action: 'ANSWER_WITH_AI' } };
  const server: Server = createServer(
    { cert: readFileSync(certFile), key: readFileSync(keyFile) },
    (req, res) => {
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
        requests.push({ headers: req.headers, rawBody, json });
        const current = answer;
        const reply = () => {
          if (res.destroyed) return;
          res
            .writeHead(current.status ?? 200, { 'content-type': 'application/json' })
            .end(typeof current.body === 'string' ? current.body : JSON.stringify(current.body));
        };
        if (current.delayMs) setTimeout(reply, current.delayMs);
        else reply();
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
    answerWith: (next) => {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
