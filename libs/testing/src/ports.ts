import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';

const PORT_FLOOR = 10_000;
const WORKER_SLICES = 8;
/** Ports this process handed out, so concurrent callers never get the same one. */
const handedOut = new Set<number>();

/** The first port the kernel hands to outgoing connections (Linux's default when it cannot be read). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A TCP port that is free on the host now and stays out of others' way until it is bound: it lies below the
 * kernel's ephemeral range, so no outgoing connection takes it in the meantime (an OS-picked port from that
 * range can be, and the app meant to listen on it then fails with EADDRINUSE), and each Jest worker draws
 * from its own slice of that space, so parallel workers do not race for one port.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const sliceSize = Math.floor((ephemeralLow() - PORT_FLOOR) / WORKER_SLICES);
  if (sliceSize >= 100) {
    const worker = Number(process.env.JEST_WORKER_ID) || 0;
    const base = PORT_FLOOR + (worker % WORKER_SLICES) * sliceSize;
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = base + randomInt(sliceSize);
      if (handedOut.has(port)) continue;
      handedOut.add(port);
      if (await isPortFree(port, host)) return port;
    }
  }
  return osPickedPort(host);
}

/** A port the OS picked from its ephemeral range: the fallback when there is no room below it. */
function osPickedPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not read the allocated port'))));
    });
  });
}

/** True when something accepts a TCP connection on host:port within the timeout. */
export function canConnect(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when nothing listens on host:port, i.e. a server could bind it now. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
