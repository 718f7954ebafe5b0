import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { onCommitWakeup, wakeAfterCommit } from '@vap/persistence';

const CHANNEL = 'campaigns_dispatch';

/**
 * "A campaign may have a free slot", from the transaction that freed it (a call released concurrency, a
 * campaign started or resumed): this replica's dispatcher hears it at commit, so the next call is dialled at
 * once instead of at the next poll. Not a NOTIFY, whose commits Postgres serialises database-wide (see
 * wakeAfterCommit); the other replicas find the campaign at their poll.
 */
@Injectable()
export class DispatchSignal implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly handlers: ((campaignId: string) => void)[] = [];
  private stopWakeups?: () => void;

  notify(em: EntityManager, campaignId: string): void {
    wakeAfterCommit(em, CHANNEL, campaignId);
  }

  onSignal(handler: (campaignId: string) => void): void {
    this.handlers.push(handler);
  }

  onApplicationBootstrap(): void {
    this.stopWakeups = onCommitWakeup(CHANNEL, (campaignId) => {
      if (campaignId) for (const handler of this.handlers) handler(campaignId);
    });
  }

  beforeApplicationShutdown(): void {
    this.stopWakeups?.();
  }
}
