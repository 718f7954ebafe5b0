import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { onCommitWakeup, PgListener, wakeAfterCommit } from '@vap/persistence';

const CHANNEL = 'campaigns_dispatch';

/**
 * "A campaign may have a free slot", from the transaction that freed it (a call released concurrency, a
 * campaign started or resumed): this replica's dispatcher hears it at commit, so the next call is dialled at
 * once instead of at the next poll. Not a NOTIFY, whose commits Postgres serialises database-wide (see
 * wakeAfterCommit); the LISTEN stays for a signal from elsewhere, and polling covers the other replicas.
 */
@Injectable()
export class DispatchSignal implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DispatchSignal.name);
  private readonly handlers: ((campaignId: string) => void)[] = [];
  private readonly listener: PgListener;
  private stopWakeups?: () => void;

  constructor(@InjectDataSource() dataSource: DataSource) {
    const options = dataSource.options as { url?: string; applicationName?: string };
    this.listener = new PgListener({
      databaseUrl: options.url,
      channel: CHANNEL,
      applicationName: `${options.applicationName ?? 'campaigns'}:dispatch-listener`,
      label: 'dispatch',
      onNotification: (campaignId) => this.signal(campaignId),
      log: this.logger,
    });
  }

  notify(em: EntityManager, campaignId: string): void {
    wakeAfterCommit(em, CHANNEL, campaignId);
  }

  onSignal(handler: (campaignId: string) => void): void {
    this.handlers.push(handler);
  }

  private signal(campaignId: string | undefined): void {
    if (campaignId) for (const handler of this.handlers) handler(campaignId);
  }

  onApplicationBootstrap(): Promise<void> {
    this.stopWakeups = onCommitWakeup(CHANNEL, (campaignId) => this.signal(campaignId));
    return this.listener.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    this.stopWakeups?.();
    return this.listener.stop();
  }
}
