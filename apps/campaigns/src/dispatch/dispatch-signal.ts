import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

const CHANNEL = 'campaigns_dispatch';
const RELISTEN_MS = 2000;

/**
 * "A campaign may have a free slot": NOTIFY sent inside the transaction that freed it (a call released
 * concurrency, a campaign started or resumed) reaches every replica at commit, so the next call is dialled
 * at once instead of at the next poll. Polling still covers a lost listener.
 */
@Injectable()
export class DispatchSignal implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DispatchSignal.name);
  private readonly handlers: ((campaignId: string) => void)[] = [];
  private listener?: Client;
  private relistenTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async notify(em: EntityManager, campaignId: string): Promise<void> {
    await em.query('SELECT pg_notify($1, $2)', [CHANNEL, campaignId]);
  }

  onSignal(handler: (campaignId: string) => void): void {
    this.handlers.push(handler);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
  }

  private async listen(): Promise<void> {
    const options = this.dataSource.options as { url?: string; applicationName?: string };
    const client = new Client({
      connectionString: options.url,
      application_name: `${options.applicationName ?? 'campaigns'}:dispatch-listener`,
    });
    const lost = (reason: string) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.logger.warn(`dispatch listener lost (${reason}); polling until it is back`);
      client.end().catch(() => undefined);
      this.relisten();
    };
    client.on('error', (err) => lost(err.message));
    client.on('end', () => lost('connection closed'));
    client.on('notification', (msg) => {
      if (msg.payload) for (const handler of this.handlers) handler(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      this.logger.warn(`dispatch LISTEN unavailable, polling meanwhile: ${(err as Error).message}`);
      await client.end().catch(() => undefined);
      this.relisten();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  private relisten(): void {
    if (this.stopped || this.relistenTimer) return;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      void this.listen();
    }, RELISTEN_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.relistenTimer) clearTimeout(this.relistenTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }
}
