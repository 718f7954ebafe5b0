import { DynamicModule, INestApplication, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes, randomUUID } from 'node:crypto';
import { AddressInfo, createServer } from 'node:net';
import { CommandReply, CommandRequest, CommandSubject, DomainEvent } from '@vap/messages';
import {
  decodeJson,
  encodeJson,
  NatsConnectionService,
  NatsRpcServer,
  RpcCaller,
  RpcClient,
} from '@vap/messaging';
import {
  BaseServiceConfig,
  ClockModule,
  ManualClock,
  ServiceDefinition,
  validateConfigs,
  ValidatedConfigs,
  withServiceConfigs,
} from '@vap/runtime';
import { deleteJetStreamByPrefix, TestDatabase, waitFor } from '@vap/testing';
import { FakePeers } from './fake-peers';
import { createMigratedDatabase } from './template-database';

const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

/** What the helper needs of an app: its ServiceDefinition without the HTTP side (each app's testing/ passes it). */
export type IntegrationAppDefinition<C extends BaseServiceConfig> = Pick<
  ServiceDefinition<C>,
  'name' | 'configClass' | 'settings' | 'module' | 'dataSource'
> & {
  /** Settings the app requires that a spec does not care about (public URLs, keys). */
  env?: Record<string, string>;
  /** Settings that name the app's own HTTP address, when a spec has it listen (voice: MEDIA_PUBLIC_URL). */
  httpEnv?: (url: string) => Record<string, string>;
};

export interface IntegrationAppOptions {
  /** Settings on top of the test defaults (NODE_ENV=test, LOG_LEVEL=error) and the ones the helper owns. */
  env?: Record<string, string>;
  /** Where the manual clock starts (default: now). */
  clockStart?: Date;
  /**
   * Listen on HTTP on a free port of 127.0.0.1, as bootstrapService listens (for what is served on the HTTP
   * server itself: voice's media WebSockets, /metrics, /health); `url` is then its address.
   */
  http?: boolean;
}

/** An event the app published, as its JetStream stream holds it. */
export interface PublishedEvent {
  subject: string;
  event: DomainEvent;
}

/** One app's own Nest module running in the test process, on its own database and NATS subject prefix. */
export class IntegrationApp<C extends BaseServiceConfig> {
  private readonly replicas: INestApplication[] = [];

  private constructor(
    private readonly def: IntegrationAppDefinition<C>,
    readonly app: INestApplication,
    readonly config: C,
    readonly configs: ValidatedConfigs,
    readonly clock: ManualClock,
    readonly peers: FakePeers,
    readonly db: TestDatabase | null,
    readonly prefix: string,
    /** The app's HTTP address when started with `http`, else null. */
    readonly url: string | null,
    private readonly peerNats: NatsConnectionService,
    private readonly client: RpcClient,
  ) {}

  /**
   * Starts the app: its configs validated from the test env, a database copied from its migrated template, a
   * unique NATS_SUBJECT_PREFIX, its NatsRpcServer answering its commands, its Clock a ManualClock, and fake
   * peers answering every other service's commands.
   */
  static async start<C extends BaseServiceConfig>(
    def: IntegrationAppDefinition<C>,
    options: IntegrationAppOptions = {},
  ): Promise<IntegrationApp<C>> {
    const prefix = `it_${def.name}_${randomBytes(4).toString('hex')}`;
    // Nest's own logger speaks before the app's is set (NATS connects); a spec shows errors only unless asked.
    Logger.overrideLogger(logLevels());
    const dataSource = def.dataSource;
    const db = dataSource
      ? await createMigratedDatabase(POSTGRES_URL, def.name, (url) =>
          dataSource(Object.assign(new def.configClass(), { DATABASE_URL: url })),
        )
      : null;
    const cleanups: (() => Promise<unknown>)[] = [];
    if (db) cleanups.push(() => db.drop());
    try {
      const port = options.http ? await freePort() : null;
      const url = port === null ? null : `http://127.0.0.1:${port}`;
      const configs = validateConfigs([def.configClass, ...(def.settings ?? [])], {
        NODE_ENV: 'test',
        LOG_LEVEL: 'error',
        ...def.env,
        ...(url ? def.httpEnv?.(url) : {}),
        ...options.env,
        ...(db ? { DATABASE_URL: db.url } : {}),
        NATS_URL,
        NATS_SUBJECT_PREFIX: prefix,
        // Migrations ran into the template already.
        MIGRATIONS_RUN: 'false',
      });
      const config = configs.get(def.configClass);
      const clock = new ManualClock(options.clockStart);
      const peerNats = new NatsConnectionService({
        serviceName: 'peers',
        url: NATS_URL,
        subjectPrefix: prefix,
      });
      await peerNats.onModuleInit();
      cleanups.unshift(async () => {
        await peerNats.onApplicationShutdown();
        await deleteJetStreamByPrefix(NATS_URL, prefix);
      });
      const peers = new FakePeers(peerNats, def.name);
      await peers.start();
      cleanups.unshift(() => peers.stop());
      const app = await createApp(def, config, configs, clock, (a) => cleanups.unshift(() => a.close()));
      if (port !== null) await app.listen(port, '127.0.0.1');
      const client = new RpcClient(peerNats, { serviceName: 'peers', url: NATS_URL, requestTimeoutMs: 5000 });
      return new IntegrationApp(def, app, config, configs, clock, peers, db, prefix, url, peerNats, client);
    } catch (err) {
      for (const cleanup of cleanups) await cleanup().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Another instance of the app on the same database, NATS prefix and manual clock, as a deployment runs several
   * replicas: it joins the same queue groups and durable consumers. stop() closes it with the app.
   */
  async replica(): Promise<INestApplication> {
    return createApp(this.def, this.config, this.configs, this.clock, (a) => this.replicas.push(a));
  }

  /** A provider of the app (a use case, a repository, the DataSource). */
  get<T>(token: (abstract new (...args: never[]) => T) | string | symbol): T {
    return this.app.get(token as never);
  }

  /** Sends the app a command as another service would, and resolves to its typed reply. */
  send<S extends CommandSubject>(
    subject: S,
    caller: RpcCaller,
    data: CommandRequest<S>,
  ): Promise<CommandReply<S>> {
    // RpcClient's request and reply types of a subject left generic are conditional types TypeScript cannot
    // match to CommandMap's; for a concrete subject they are the same.
    return this.client.request(subject, caller, data as never) as Promise<CommandReply<S>>;
  }

  /**
   * Publishes an event as another service's outbox relay does (JetStream on the run's prefix, the event id as
   * the message id), for the app's consumers to receive; resolves once the stream stored it, with its sequence.
   */
  async publish<T>(
    subject: string,
    data: T,
    partnerId: string | null,
  ): Promise<{ event: DomainEvent<T>; seq: number }> {
    const event: DomainEvent<T> = {
      id: randomUUID(),
      subject,
      partnerId,
      occurredAt: this.clock.now().toISOString(),
      data,
    };
    const ack = await this.peerNats
      .js()
      .publish(this.peerNats.subject(subject), encodeJson(event), { msgID: event.id });
    return { event, seq: ack.seq };
  }

  /**
   * Waits until the app's durable consumer `durable` has handled (acknowledged) the stream's message `seq`, e.g.
   * an event publish() stored: what an event that changes nothing visible did is then observable.
   */
  async waitForConsumed(durable: string, seq: number, timeoutMs = 5000): Promise<void> {
    const jsm = await this.peerNats.nc.jetstreamManager();
    const stream = this.app.get(NatsConnectionService).streamName;
    await waitFor(async () => (await jsm.consumers.info(stream, durable)).ack_floor.stream_seq >= seq, {
      timeoutMs,
      intervalMs: 20,
      description: `${durable} to handle message ${seq}`,
    });
  }

  /** Every event the app has published so far (its JetStream stream, oldest first). */
  async events(subject?: string): Promise<PublishedEvent[]> {
    const jsm = await this.peerNats.nc.jetstreamManager();
    const stream = this.app.get(NatsConnectionService).streamName;
    const info = await jsm.streams.info(stream).catch(() => undefined);
    if (!info || info.state.messages === 0) return [];
    const out: PublishedEvent[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq }).catch(() => undefined);
      if (!m) continue;
      const logical = m.subject.slice(this.prefix.length + 1);
      if (subject === undefined || logical === subject)
        out.push({ subject: logical, event: decodeJson(m.data) });
    }
    return out;
  }

  /** Waits for the outbox relay to publish an event on `subject` that `match` accepts. */
  async waitForEvent<T = unknown>(
    subject: string,
    match: (event: DomainEvent<T>) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<DomainEvent<T>> {
    const found = await waitFor(
      async () => (await this.events(subject)).find((e) => match(e.event as DomainEvent<T>)),
      { timeoutMs, intervalMs: 25, description: `an event on ${subject}` },
    );
    return found.event as DomainEvent<T>;
  }

  /** Closes the app, deletes the prefix's JetStream streams and buckets, and drops the database. */
  async stop(): Promise<void> {
    const errors: unknown[] = [];
    for (const replica of this.replicas) await replica.close().catch((e) => errors.push(e));
    await this.app.close().catch((e) => errors.push(e));
    await this.peers.stop();
    await this.peerNats.onApplicationShutdown().catch((e) => errors.push(e));
    await deleteJetStreamByPrefix(NATS_URL, this.prefix).catch((e) => errors.push(e));
    await this.db?.drop().catch((e) => errors.push(e));
    if (errors.length) throw errors[0];
  }
}

/** Creates and starts one instance of the app: its Nest module, its NatsRpcServer answering its commands. */
async function createApp<C extends BaseServiceConfig>(
  def: IntegrationAppDefinition<C>,
  config: C,
  configs: ValidatedConfigs,
  clock: ManualClock,
  created: (app: INestApplication) => void,
): Promise<INestApplication> {
  const app = await NestFactory.create(
    withServiceConfigs(withClock(def.module(config, configs), clock), configs),
    {
      logger: logLevels(),
      abortOnError: false,
      bodyParser: false,
    },
  );
  created(app);
  app.connectMicroservice({ strategy: new NatsRpcServer(app.get(NatsConnectionService)) });
  await app.init();
  await app.startAllMicroservices();
  // The server has the command subscriptions once this round trip returns, so a first command finds them.
  await app.get(NatsConnectionService).nc.flush();
  return app;
}

/** The app's module with its ClockModule given the manual clock, so every provider reads that clock. */
function withClock(module: DynamicModule, clock: ManualClock): DynamicModule {
  let replaced = 0;
  const imports = (module.imports ?? []).map((imported) => {
    if (imported && typeof imported === 'object' && 'module' in imported && imported.module === ClockModule) {
      replaced++;
      return ClockModule.forRoot(clock);
    }
    return imported;
  });
  if (replaced !== 1)
    throw new Error(`expected the app module to import serviceCoreModules' ClockModule once`);
  return { ...module, imports };
}

/** A port of 127.0.0.1 free right now: the app's settings name its address before it listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function logLevels(): LogLevel[] | false {
  return process.env.INTEGRATION_LOGS ? ['log', 'warn', 'error'] : ['error'];
}
