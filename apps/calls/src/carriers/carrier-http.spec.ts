import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { TelephonyConfig } from '../config/telephony.config';
import { ConnectionHealthRecorder } from '../telephony/connections/health/connection-health.recorder';
import { CarrierHttp, CarrierUnanswered } from './carrier-http';

/** A local carrier API that takes each request, then does what `behave` says with it. */
async function carrierApi(behave: 'late' | 'drop'): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (behave === 'drop') req.socket.destroy();
      else setTimeout(() => res.writeHead(201).end('{}'), 1000).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('CarrierHttp: a carrier that does not answer', () => {
  const http = new CarrierHttp({ CARRIER_HTTP_TIMEOUT_MS: 200 } as TelephonyConfig);
  const post = (url: string) =>
    http.send('carrier_b', { method: 'POST', url, basic: { user: 'u', password: 'p' }, json: { to: '+1' } });
  const servers: Server[] = [];

  afterAll(async () => {
    await http.onModuleDestroy();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  async function failure(url: string): Promise<CarrierUnanswered> {
    const err = await post(url).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CarrierUnanswered);
    expect(err).toMatchObject({ status: 502, code: 'INTERNAL_ERROR' });
    return err as CarrierUnanswered;
  }

  it('may have been received when the answer comes after the deadline', async () => {
    const { url, server } = await carrierApi('late');
    servers.push(server);
    expect((await failure(url)).maybeReceived).toBe(true);
  });

  it('may have been received when the connection drops after the request was written', async () => {
    const { url, server } = await carrierApi('drop');
    servers.push(server);
    expect((await failure(url)).maybeReceived).toBe(true);
  });

  it('was not received when nothing listens', async () => {
    const { url, server } = await carrierApi('late');
    await new Promise((resolve) => server.close(resolve));
    expect((await failure(url)).maybeReceived).toBe(false);
  });
});

describe('CarrierHttp: connection health', () => {
  const recorded: string[] = [];
  const recorder = {
    success: (id: string, op: string) => recorded.push(`success ${id} ${op}`),
    failure: (id: string, op: string, status: number | null) =>
      recorded.push(`failure ${id} ${op} ${status}`),
  } as unknown as ConnectionHealthRecorder;
  const http = new CarrierHttp({ CARRIER_HTTP_TIMEOUT_MS: 2000 } as TelephonyConfig, recorder);
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(req.url === '/ok' ? 200 : 401).end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await http.onModuleDestroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => recorded.splice(0));

  const get = (path: string, health?: { connectionId: string; operation: string }) =>
    http.send('carrier_b', {
      method: 'GET',
      url: `${url}${path}`,
      basic: { user: 'u', password: 'p' },
      health,
    });

  it('records a 2xx as the connection’s last success and any other answer as its last failure', async () => {
    await get('/ok', { connectionId: 'c1', operation: 'GET account' });
    await get('/denied', { connectionId: 'c1', operation: 'GET account' });
    expect(recorded).toEqual(['success c1 GET account', 'failure c1 GET account 401']);
  });

  it('records no answer as a failure without a status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      http.send('carrier_b', {
        method: 'GET',
        url: `http://127.0.0.1:${port}/`,
        basic: { user: 'u', password: 'p' },
        health: { connectionId: 'c2', operation: 'GET account' },
      }),
    ).rejects.toBeInstanceOf(CarrierUnanswered);
    expect(recorded).toEqual(['failure c2 GET account null']);
  });

  it('records nothing for a request made for no connection', async () => {
    await get('/ok');
    expect(recorded).toEqual([]);
  });
});
