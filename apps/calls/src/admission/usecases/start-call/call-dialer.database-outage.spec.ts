// An admitted call's dial across a database outage, against real Postgres reached through a TCP proxy the
// test takes down and brings back: an outage inside the placement grace delays the dial, which then happens
// once; one that outlasts the grace leaves the call undialled for the placement recovery.
import { randomUUID } from 'node:crypto';
import { AddressInfo, createServer, Server, Socket, connect } from 'node:net';
import { DataSource } from 'typeorm';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase, waitFor } from '@vap/testing';
import { CallbackUrls } from '../../../carriers/callback-urls';
import { CarrierAdapter } from '../../../carriers/carrier-adapter';
import { CarrierRegistry } from '../../../carriers/carrier-registry';
import { CallsConfig } from '../../../config/calls.config';
import { callsDataSourceOptions } from '../../../database/data-source';
import { CallProgressService } from '../../../progress/call-progress.service';
import { Call } from '../../../calls/entities/call.entity';
import { CallDialer } from './call-dialer';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const GRACE_SECS = 10;

/**
 * A TCP proxy in front of Postgres. Down, it cuts every open connection and every new one as soon as it
 * is made (counting them), as a database that restarts does to its clients.
 */
class DatabaseProxy {
  private readonly open = new Set<Socket>();
  private down = false;
  refused = 0;
  readonly server: Server;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => {
      if (this.down) {
        this.refused++;
        client.destroy();
        return;
      }
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        this.open.add(socket);
        socket.on('close', () => this.open.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  stop(): void {
    this.down = true;
    this.refused = 0;
    for (const socket of this.open) socket.destroy();
  }

  start(): void {
    this.down = false;
  }

  close(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('CallDialer across a database outage (real Postgres)', () => {
  let db: TestDatabase;
  let proxy: DatabaseProxy;
  let dataSource: DataSource;
  let direct: DataSource;
  let config: CallsConfig;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_call_dialer_outage');
    const target = new URL(db.url);
    proxy = new DatabaseProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(db.url);
    viaProxy.port = String(await proxy.listen());
    config = Object.assign(new CallsConfig(), {
      DATABASE_URL: db.url,
      PLACEMENT_GRACE_SECS: GRACE_SECS,
      PUBLIC_BASE_URL: 'https://platform.test',
    });
    await runMigrations(callsDataSourceOptions(config));
    direct = await new DataSource(callsDataSourceOptions(config)).initialize();
    dataSource = await new DataSource(
      callsDataSourceOptions(Object.assign(new CallsConfig(), config, { DATABASE_URL: viaProxy.toString() })),
    ).initialize();
  });

  afterAll(async () => {
    proxy?.start();
    await dataSource?.destroy();
    await direct?.destroy();
    await proxy?.close();
    await db?.drop();
  });

  /** An admitted outbound call, `ageSecs` after its admission. */
  async function admittedCall(ageSecs = 0): Promise<Call> {
    const partnerId = randomUUID();
    const connectionId = randomUUID();
    await direct.query(
      `INSERT INTO calls.connections (id, partner_id, provider, name) VALUES ($1, $2, 'carrier_a', 'line')`,
      [connectionId, partnerId],
    );
    const id = randomUUID();
    await direct.query(
      `INSERT INTO calls.calls (id, partner_id, agent_id, session_id, direction, from_number, to_number,
                                connection_id, provider, status, agent_settings, created_at)
       VALUES ($1, $2, $3, $4, 'outbound', '+918000000001', '+918000000002', $5, 'carrier_a', 'pending', '{}',
               now() - make_interval(secs => $6))`,
      [id, partnerId, randomUUID(), randomUUID(), connectionId, ageSecs],
    );
    return direct.getRepository(Call).findOneByOrFail({ id });
  }

  function dialerWith(placed: string[]): { dialer: CallDialer; adapter: CarrierAdapter } {
    // The carrier is outside the platform: it records what it was asked to place.
    const adapter = {
      provider: 'carrier_a',
      placeCall: async (outbound: { callId: string }) => {
        placed.push(outbound.callId);
        return { providerCallId: `CA-${outbound.callId}` };
      },
    } as unknown as CarrierAdapter;
    const progress = {
      apply: async () => {
        throw new Error('no call may be failed through progress here');
      },
    } as unknown as CallProgressService;
    const dialer = new CallDialer(
      dataSource,
      { get: () => adapter } as unknown as CarrierRegistry,
      new CallbackUrls(config),
      progress,
      config,
    );
    return { dialer, adapter };
  }

  const row = async (id: string) =>
    (
      (await direct.query(`SELECT status, provider_call_id, dial_started_at FROM calls.calls WHERE id = $1`, [
        id,
      ])) as { status: string; provider_call_id: string | null; dial_started_at: Date | null }[]
    )[0];

  it('dials a call once the database answers again, when it went away within the grace', async () => {
    const call = await admittedCall();
    const placed: string[] = [];
    const { dialer, adapter } = dialerWith(placed);

    proxy.stop();
    const dialled = dialer.dial(adapter, call);
    // The dial has met the outage more than once before the database comes back.
    await waitFor(() => proxy.refused >= 2, { description: 'the dial to retry while the database is down' });
    expect(placed).toEqual([]);
    proxy.start();

    await expect(dialled).resolves.toBeUndefined();
    expect(placed).toEqual([call.id]);
    expect(await row(call.id)).toMatchObject({
      status: 'pending',
      provider_call_id: `CA-${call.id}`,
      dial_started_at: expect.any(Date),
    });
    // Exactly once: a second start of the same call finds its dial taken.
    await expect(dialer.dial(adapter, call)).rejects.toMatchObject({ status: 502 });
    expect(placed).toEqual([call.id]);
  });

  it('leaves undialled, for the placement recovery, a call whose grace ends while the database is down', async () => {
    const call = await admittedCall(GRACE_SECS - 1);
    const placed: string[] = [];
    const { dialer, adapter } = dialerWith(placed);

    proxy.stop();
    try {
      await expect(dialer.dial(adapter, call)).rejects.toThrow();
    } finally {
      proxy.start();
    }
    expect(placed).toEqual([]);
    expect(await row(call.id)).toMatchObject({
      status: 'pending',
      provider_call_id: null,
      dial_started_at: null,
    });
  });
});
