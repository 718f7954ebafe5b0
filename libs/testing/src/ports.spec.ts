import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { canConnect, freePort, isPortFree } from './ports';

describe('freePort', () => {
  it('returns a port that can be bound right away', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65536);
    expect(await isPortFree(port)).toBe(true);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    try {
      expect(await canConnect('127.0.0.1', port)).toBe(true);
      expect(await isPortFree(port)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('hands out different ports to concurrent callers', async () => {
    const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    expect(new Set(ports).size).toBe(5);
  });

  it('stays below the ephemeral range, where outgoing connections take their ports', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(low);
  });
});

describe('canConnect', () => {
  it('is false when nothing listens', async () => {
    expect(await canConnect('127.0.0.1', await freePort(), 500)).toBe(false);
  });
});
