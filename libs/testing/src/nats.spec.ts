import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_NATS_SERVER_MESSAGE, resolveNats } from './nats';
import { canConnect, freePort } from './ports';

describe('resolveNats', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vap-nats-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with a one-line message saying how to get a server when there is none', async () => {
    const closedPort = await freePort();
    const attempt = resolveNats({
      dataDir: dir,
      env: {},
      probe: { host: '127.0.0.1', port: closedPort },
      searchPath: [dir], // an empty folder: no nats-server binary
    });
    const error: Error = await attempt.then(
      () => {
        throw new Error('expected resolveNats to fail');
      },
      (err: Error) => err,
    );
    expect(error.message).toBe(NO_NATS_SERVER_MESSAGE);
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(/NATS_URL/);
    expect(error.message).toMatch(/install nats-server/);
  });

  it('uses NATS_URL as given, without probing', async () => {
    const nats = await resolveNats({
      dataDir: dir,
      env: { NATS_URL: 'nats://nats.internal:4222' },
      searchPath: [],
    });
    expect(nats).toMatchObject({ url: 'nats://nats.internal:4222', source: 'env' });
    await nats.stop();
  });

  it('uses the local server when the probed port accepts connections', async () => {
    const server: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const nats = await resolveNats({
        dataDir: dir,
        env: {},
        probe: { host: '127.0.0.1', port },
        searchPath: [],
      });
      expect(nats).toMatchObject({ url: `nats://127.0.0.1:${port}`, source: 'local' });
    } finally {
      server.close();
    }
  });

  const natsServerOnPath = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin'].some(
    (d) => {
      try {
        accessSync(join(d, 'nats-server'), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  );

  (natsServerOnPath ? it : it.skip)(
    'starts nats-server on a free port when nothing answers, and stops it',
    async () => {
      const closedPort = await freePort();
      const nats = await resolveNats({
        dataDir: dir,
        env: { PATH: process.env.PATH },
        probe: { host: '127.0.0.1', port: closedPort },
      });
      expect(nats.source).toBe('spawned');
      const port = Number(new URL(nats.url).port);
      expect(port).not.toBe(closedPort);
      expect(await canConnect('127.0.0.1', port)).toBe(true);
      await nats.stop();
      expect(await canConnect('127.0.0.1', port)).toBe(false);
    },
  );
});
