import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** From the request's first byte to the answer's last. */
  elapsedMs: number;
  /** Whether the gateway closed the connection after answering. */
  closed: boolean;
}

export interface RawRequest {
  method: string;
  path: string;
  /** Sent as written (Host included: a client may write any). */
  headers: Record<string, string>;
  /** Bytes sent after the headers, however many Content-Length declares. */
  body?: string | Buffer;
  timeoutMs?: number;
  /** After the answer, how long to wait for the gateway to close the connection (default 200 ms). */
  closeWithinMs?: number;
}

/**
 * Sends one HTTP/1.1 request over a plain socket, exactly as given: headers a fetch client would refuse or
 * rewrite (Host), or a Content-Length larger than the body actually sent, so that a test sees whether the
 * gateway answers without waiting for the rest. Resolves with the first complete answer; rejects after
 * `timeoutMs` without one.
 */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    let answer: Omit<RawAnswer, 'closed'> | null = null;
    const timer = setTimeout(() => {
      if (answer) return;
      socket.destroy();
      reject(
        new Error(
          `no complete answer to ${request.method} ${request.path} within ${request.timeoutMs ?? 5000} ms`,
        ),
      );
    }, request.timeoutMs ?? 5000);
    const finish = (closed: boolean) => {
      if (!answer) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...answer, closed });
    };
    socket.on('connect', () => {
      const head = Object.entries(request.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`${request.method} ${request.path} HTTP/1.1\r\n${head}\r\n`);
      if (request.body !== undefined) socket.write(request.body);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1 || answer) return;
      const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      const length = Number(headers['content-length'] ?? 0);
      if (received.length < end + 4 + length) return;
      answer = {
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
        elapsedMs: Date.now() - started,
      };
      // Whether the gateway closes the connection after answering, within the time given.
      setTimeout(() => finish(false), request.closeWithinMs ?? 200).unref();
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (err) => {
      if (answer) finish(true);
      else {
        clearTimeout(timer);
        reject(err);
      }
    });
  });
}
