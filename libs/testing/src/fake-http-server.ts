// The plumbing every fake of an outside server shares: one HTTP server on a free port of 127.0.0.1 (with WebSocket
// upgrades), its origin, bounded request bodies, JSON answers, and a close that does not wait for the connections
// a test left open (a hung request holds its socket).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface FakeServerHandlers {
  request(req: IncomingMessage, res: ServerResponse, url: URL): void | Promise<void>;
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void;
}

export interface StartedFakeServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** ws://127.0.0.1:<port> */
  wsUrl: string;
  /** The node server, for what a fake attaches to it (a WebSocket server). */
  server: Server;
  close(): Promise<void>;
}

/** Starts a fake on a free port of 127.0.0.1; a handler that throws answers 500 (or drops the answer begun). */
export async function startFakeServer(handlers: FakeServerHandlers): Promise<StartedFakeServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    Promise.resolve(handlers.request(req, res, url)).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: (err as Error).message } });
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (!handlers.upgrade) return void socket.destroy();
    handlers.upgrade(req, socket, head, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A request body, at most `limit` bytes (a fake refuses what its server would refuse as too large). */
export async function readBody(req: IncomingMessage, limit = 1 << 20): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error(`body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
