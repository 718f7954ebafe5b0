import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PgListener } from '@vap/persistence';

const CHANNEL = 'campaigns_dispatch';

/**
 * "A campaign may have a free slot": NOTIFY sent inside the transaction that freed it (a call released
 * concurrency, a campaign started or resumed) reaches every replica at commit, so the next call is dialled
 * at once instead of at the next poll. Polling still covers a lost listener.
 */
@Injectable()
export class DispatchSignal implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DispatchSignal.name);
  private readonly handlers: ((campaignId: string) => void)[] = [];
  private readonly listener: PgListener;

  constructor(@InjectDataSource() dataSource: DataSource) {
    const options = dataSource.options as { url?: string; applicationName?: string };
    this.listener = new PgListener({
      databaseUrl: options.url,
      channel: CHANNEL,
      applicationName: `${options.applicationName ?? 'campaigns'}:dispatch-listener`,
      label: 'dispatch',
      onNotification: (campaignId) => {
        if (campaignId) for (const handler of this.handlers) handler(campaignId);
      },
      log: this.logger,
    });
  }

  async notify(em: EntityManager, campaignId: string): Promise<void> {
    await em.query('SELECT pg_notify($1, $2)', [CHANNEL, campaignId]);
  }

  onSignal(handler: (campaignId: string) => void): void {
    this.handlers.push(handler);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.listener.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.listener.stop();
  }
}
