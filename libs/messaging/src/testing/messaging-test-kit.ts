// Integration-test support for the messaging lib: a fresh database and a private NATS subject prefix per
// test file, Nest contexts built around MessagingModule, and read access to the JetStream stream. Only the
// lib's own specs import this file; it is not exported from the package.
import { DynamicModule, INestApplicationContext, LogLevel, Module, Provider, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { connect, ConsumerInfo, JetStreamManager, NatsConnection, Msg, Subscription } from 'nats';
import {
  Column,
  DataSource,
  DataSourceOptions,
  Entity,
  MigrationInterface,
  PrimaryGeneratedColumn,
  QueryRunner,
} from 'typeorm';
import { DomainEvent, MessageHeaders } from '@vap/messages';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { runMigrations, schemaDataSourceOptions } from '@vap/persistence';
import { createInboxPruneIndex, createMessagingTables, dropMessagingTables } from '../messaging-tables';
import { MessagingModule } from '../messaging.module';
import { NatsConnectionService } from '../nats-connection.service';
import { NatsRpcServer } from '../rpc/nats-rpc.server';
import { OutboxRecord } from '../outbox/outbox-record.entity';
import { InboxRecord } from '../inbox/inbox-record.entity';
import { decodeJson } from '../codec';
import { EventStreamService } from '../events/event-stream.service';

export const TEST_SCHEMA = 'msgtest';
export const POSTGRES_SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

/** A row a test writes as "the state change" or "the handler's effect"; duplicates are allowed so they show. */
@Entity({ name: 'effects' })
export class TestEffect {
  @PrimaryGeneratedColumn()
  id: number;

  @Column('text')
  kind: string;

  @Column('text')
  ref: string;
}

/** The test schema's one migration: the shared messaging tables plus the effects table. */
export function messagingTestMigration(schema: string): new () => MigrationInterface {
  return class MessagingTestSchema1700000000000 implements MigrationInterface {
    name = 'MessagingTestSchema1700000000000';

    async up(queryRunner: QueryRunner): Promise<void> {
      await createMessagingTables(queryRunner, schema);
      await createInboxPruneIndex(queryRunner, schema);
      await queryRunner.query(
        `CREATE TABLE "${schema}"."effects" ("id" serial PRIMARY KEY, "kind" text NOT NULL, "ref" text NOT NULL)`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE "${schema}"."effects"`);
      await dropMessagingTables(queryRunner, schema);
    }
  };
}

export interface TestAppSpec {
  serviceName: string;
  providers?: Provider[];
  controllers?: Type[];
  requestTimeoutMs?: number;
  eventRetentionMs?: number;
  /** Also start a NatsRpcServer (needs an HTTP-capable Nest application, as the services have). */
  rpcServer?: boolean;
}

export interface StreamMessage {
  seq: number;
  subject: string;
  msgId: string | undefined;
  requestId: string | undefined;
  event: DomainEvent;
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** Polls until check() returns something other than undefined/false; fails with the message after the bound. */
export async function waitFor<T>(
  description: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 50 }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError ? ` (last error: ${(lastError as Error).message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${cause}`);
    }
    await sleep(intervalMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

@Module({})
class MessagingTestAppModule {}

function logLevels(): LogLevel[] | false {
  return process.env.MESSAGING_TEST_LOGS ? ['log', 'warn', 'error'] : false;
}

/** One test file's private world: database, subject prefix, stream, and the Nest contexts it started. */
export class MessagingTestKit {
  private readonly apps = new Set<INestApplicationContext>();
  private readonly dataSources = new Set<DataSource>();
  private readonly subscriptions: Subscription[] = [];

  private constructor(
    readonly db: TestDatabase,
    readonly prefix: string,
    readonly nc: NatsConnection,
    readonly jsm: JetStreamManager,
  ) {}

  static async create(label: string): Promise<MessagingTestKit> {
    const db = await createTestDatabase(POSTGRES_SERVER_URL, label);
    try {
      const prefix = `t_${randomBytes(5).toString('hex')}`;
      const nc = await connect({ servers: NATS_URL, name: `${label}-probe` });
      const kit = new MessagingTestKit(db, prefix, nc, await nc.jetstreamManager());
      await runMigrations(kit.dataSourceOptions());
      return kit;
    } catch (err) {
      await db.drop().catch(() => undefined);
      throw err;
    }
  }

  /** The stream name the lib derives from the prefix (NatsConnectionService.streamName). */
  get streamName(): string {
    return new NatsConnectionService({ serviceName: 'probe', url: NATS_URL, subjectPrefix: this.prefix })
      .streamName;
  }

  /** The wire subject of a logical subject. */
  subject(logical: string): string {
    return `${this.prefix}.${logical}`;
  }

  dataSourceOptions(schema = TEST_SCHEMA): DataSourceOptions {
    return schemaDataSourceOptions({
      url: this.db.url,
      schema,
      entities: [OutboxRecord, InboxRecord, TestEffect],
      migrations: [messagingTestMigration(schema)],
      poolSize: 3,
    });
  }

  module(spec: TestAppSpec): DynamicModule {
    return {
      module: MessagingTestAppModule,
      imports: [
        TypeOrmModule.forRoot({ ...this.dataSourceOptions(), retryAttempts: 0 }),
        MessagingModule.forRoot({
          serviceName: spec.serviceName,
          url: NATS_URL,
          subjectPrefix: this.prefix,
          requestTimeoutMs: spec.requestTimeoutMs,
          eventRetentionMs: spec.eventRetentionMs,
        }),
      ],
      providers: spec.providers ?? [],
      controllers: spec.controllers ?? [],
    };
  }

  /** Starts a service-like Nest context: outbox relay, event consumers and, if asked, the RPC server. */
  async startApp(spec: TestAppSpec): Promise<INestApplicationContext> {
    let app: INestApplicationContext;
    if (spec.rpcServer) {
      const http = await NestFactory.create(this.module(spec), { logger: logLevels(), abortOnError: false });
      http.connectMicroservice({ strategy: new NatsRpcServer(http.get(NatsConnectionService)) });
      await http.init();
      await http.startAllMicroservices();
      app = http;
    } else {
      app = await NestFactory.createApplicationContext(this.module(spec), {
        logger: logLevels(),
        abortOnError: false,
      });
    }
    this.apps.add(app);
    return app;
  }

  /** An app with no handlers of its own whose event stream exists, kept for `eventRetentionMs` if given. */
  async startStreamApp(eventRetentionMs?: number): Promise<INestApplicationContext> {
    const app = await this.startApp({ serviceName: 'retention', eventRetentionMs });
    await app.get(EventStreamService).ensure();
    return app;
  }

  async stopApp(app: INestApplicationContext): Promise<void> {
    this.apps.delete(app);
    await app.close();
  }

  /** A bare DataSource on the test schema: a process with no relay and no consumers running. */
  async openDataSource(schema = TEST_SCHEMA): Promise<DataSource> {
    const ds = new DataSource({ ...this.dataSourceOptions(schema), poolSize: 2 } as DataSourceOptions);
    await ds.initialize();
    this.dataSources.add(ds);
    return ds;
  }

  async closeDataSource(ds: DataSource): Promise<void> {
    this.dataSources.delete(ds);
    await ds.destroy();
  }

  /**
   * Every message published on a subject pattern as core NATS sees it, before JetStream's duplicate
   * filter: a row the relay published twice shows up twice here even though the stream stores it once.
   */
  async tap(logicalPattern: string): Promise<Msg[]> {
    const seen: Msg[] = [];
    const sub = this.nc.subscribe(this.subject(logicalPattern), {
      callback: (err, msg) => !err && seen.push(msg),
    });
    this.subscriptions.push(sub);
    await this.nc.flush();
    return seen;
  }

  /** The stream's messages in order (empty when the stream does not exist yet). */
  async streamMessages(): Promise<StreamMessage[]> {
    const info = await this.jsm.streams.info(this.streamName).catch(() => undefined);
    if (!info || info.state.messages === 0) return [];
    const out: StreamMessage[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const m = await this.jsm.streams.getMessage(this.streamName, { seq });
      out.push({
        seq,
        subject: m.subject,
        msgId: m.header?.get('Nats-Msg-Id') || undefined,
        requestId: m.header?.get(MessageHeaders.requestId) || undefined,
        event: decodeJson<DomainEvent>(m.data),
      });
    }
    return out;
  }

  /** How many messages the stream holds on one logical subject. */
  async streamCount(logical: string): Promise<number> {
    const info = await this.jsm.streams
      .info(this.streamName, { subjects_filter: this.subject(logical) })
      .catch(() => undefined);
    return info?.state.subjects?.[this.subject(logical)] ?? 0;
  }

  async consumerInfo(durable: string): Promise<ConsumerInfo> {
    return this.jsm.consumers.info(this.streamName, durable);
  }

  /** Waits until a durable consumer has acked everything up to the stream's last message. */
  async waitConsumerDrained(durable: string, opts?: WaitOptions): Promise<ConsumerInfo> {
    return waitFor(
      `consumer ${durable} to ack the whole stream`,
      async () => {
        const [stream, info] = await Promise.all([
          this.jsm.streams.info(this.streamName),
          this.consumerInfo(durable),
        ]);
        return info.num_pending === 0 &&
          info.num_ack_pending === 0 &&
          info.ack_floor.stream_seq >= stream.state.last_seq
          ? info
          : undefined;
      },
      opts,
    );
  }

  /** Runs a query on a short-lived connection of the test database. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const ds = await this.sharedDataSource();
    return ds.query(sql, params) as Promise<T[]>;
  }

  private shared?: Promise<DataSource>;
  private sharedDataSource(): Promise<DataSource> {
    this.shared ??= this.openDataSource();
    return this.shared;
  }

  async effects(kind: string): Promise<string[]> {
    const rows = await this.query<{ ref: string }>(
      `SELECT ref FROM "${TEST_SCHEMA}"."effects" WHERE kind = $1 ORDER BY id`,
      [kind],
    );
    return rows.map((r) => r.ref);
  }

  async dispose(): Promise<void> {
    const errors: unknown[] = [];
    for (const app of [...this.apps].reverse()) await app.close().catch((e) => errors.push(e));
    this.apps.clear();
    for (const sub of this.subscriptions) sub.unsubscribe();
    for (const ds of this.dataSources) await ds.destroy().catch((e) => errors.push(e));
    this.dataSources.clear();
    await this.jsm.streams.delete(this.streamName).catch(() => undefined);
    await this.nc.drain().catch((e) => errors.push(e));
    await this.db.drop().catch((e) => errors.push(e));
    if (errors.length) throw errors[0];
  }
}

/** The lib's specs record events of subjects of their own, with any payload: OutboxService<TestEvents>. */
export type TestEvents = Record<string, unknown>;
