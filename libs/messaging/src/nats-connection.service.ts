import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { connect, JetStreamClient, JetStreamManager, NatsConnection } from 'nats';
import { MESSAGING_OPTIONS, MessagingOptions } from './messaging.options';
import { eventStreamName, inboxPrefixOf } from './nats-permissions';

/** One NATS connection per process, shared by the RPC client, RPC server, outbox relay and consumers. */
@Injectable()
export class NatsConnectionService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(NatsConnectionService.name);
  private connection?: NatsConnection;
  /** Built once: the client holds no state per publish, and building it makes five objects. */
  private jetStream?: JetStreamClient;

  constructor(@Inject(MESSAGING_OPTIONS) readonly options: MessagingOptions) {}

  async onModuleInit(): Promise<void> {
    this.connection = await connect({
      servers: this.options.url,
      name: this.options.serviceName,
      ...(this.options.password === undefined
        ? {}
        : { user: this.options.user ?? this.options.serviceName, pass: this.options.password }),
      // Replies and deliveries under the service's own inbox, the only one its NATS user may read.
      inboxPrefix: inboxPrefixOf(this.options.serviceName),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      // The client would capture a stack trace for every request and publish in case it times out; the RPC
      // client reports timeouts by code, and those traces cost CPU on every hot path.
      noAsyncTraces: true,
    });
    this.logger.log(`connected to NATS at ${this.connection.getServer()}`);
  }

  get nc(): NatsConnection {
    if (!this.connection) throw new Error('NATS connection used before module init');
    return this.connection;
  }

  js(): JetStreamClient {
    this.jetStream ??= this.nc.jetstream();
    return this.jetStream;
  }

  jsm(): Promise<JetStreamManager> {
    return this.nc.jetstreamManager();
  }

  /** The deployment's subject for a logical subject. */
  subject(logical: string): string {
    return `${this.prefix}${logical}`;
  }

  get prefix(): string {
    return this.options.subjectPrefix ? `${this.options.subjectPrefix}.` : '';
  }

  get streamName(): string {
    return eventStreamName(this.options.subjectPrefix);
  }

  /** True when the connection is usable and the server answers a round trip. */
  async ping(): Promise<boolean> {
    if (!this.connection || this.connection.isClosed()) return false;
    try {
      await this.connection.flush();
      return true;
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.connection && !this.connection.isClosed()) {
      // drain() lets in-flight replies and acks go out before the socket closes.
      await this.connection.drain().catch(() => this.connection?.close());
    }
  }
}
