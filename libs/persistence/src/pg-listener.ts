import { Client } from 'pg';

export interface PgListenerOptions {
  /** Connection string of the database whose channel is listened to. */
  databaseUrl: string | undefined;
  channel: string;
  /** Shown in pg_stat_activity, e.g. "campaigns:dispatch-listener". */
  applicationName: string;
  /** What is listened for, for log lines ("outbox", "dispatch"). */
  label: string;
  onNotification(payload: string | undefined): void;
  /** Called once a (re)connected listener is in place: anything sent while nobody listened is missed. */
  onListening?(): void;
  log: { warn(message: string): void };
  /** Pause before a lost listener is replaced. */
  relistenMs?: number;
}

/**
 * A dedicated Postgres connection on LISTEN, replaced in the background when it is lost (restart,
 * failover, idle kill). Callers also poll, so a missing listener only delays work, never loses it.
 */
export class PgListener {
  private client?: Client;
  private relistenTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: PgListenerOptions) {}

  async start(): Promise<void> {
    const { label, log } = this.options;
    const client = new Client({
      connectionString: this.options.databaseUrl,
      application_name: this.options.applicationName,
    });
    const lost = (reason: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      log.warn(`${label} listener lost (${reason}); polling until it is back`);
      client.end().catch(() => undefined);
      this.relisten();
    };
    client.on('error', (err) => lost(err.message));
    client.on('end', () => lost('connection closed'));
    client.on('notification', (msg) => this.options.onNotification(msg.payload));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.options.channel}"`);
    } catch (err) {
      log.warn(`${label} LISTEN unavailable, polling meanwhile: ${(err as Error).message}`);
      await client.end().catch(() => undefined);
      this.relisten();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.options.onListening?.();
  }

  private relisten(): void {
    if (this.stopped || this.relistenTimer) return;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      void this.start();
    }, this.options.relistenMs ?? 2000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.relistenTimer) clearTimeout(this.relistenTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
