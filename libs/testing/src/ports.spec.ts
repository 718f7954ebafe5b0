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
});

describe('canConnect', () => {
  it('is false when nothing listens', async () => {
    expect(await canConnect('127.0.0.1', await freePort(), 500)).toBe(false);
  });
});
