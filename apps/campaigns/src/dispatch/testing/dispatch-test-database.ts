// For the dispatch specs that run against real Postgres: a fresh database migrated to the campaigns schema, and
// the services the dispatch code needs around it. Only what the specs exercise is wired: CampaignLifecycle's
// agents, webhooks and outbox collaborators are absent (claims and settlements there only read and lock).
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { runMigrations } from '@vap/persistence';
import { SystemClock } from '@vap/runtime';
import { CampaignLifecycle } from '../../campaigns/campaign-lifecycle.service';
import { CampaignsRepository } from '../../campaigns/campaigns.repository';
import { CampaignClock } from '../../clock/campaign-clock';
import { CampaignsConfig } from '../../config/campaigns.config';
import { campaignsDataSourceOptions } from '../../database/data-source';
import { DispatchSignal } from '../dispatch-signal';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export interface DispatchTestDatabase {
  db: TestDatabase;
  dataSource: DataSource;
  config: CampaignsConfig;
  clock: CampaignClock;
  signal: DispatchSignal;
  lifecycle: CampaignLifecycle;
  close(): Promise<void>;
}

export async function openDispatchTestDatabase(label: string): Promise<DispatchTestDatabase> {
  const db = await createTestDatabase(SERVER_URL, label);
  const config = Object.assign(new CampaignsConfig(), { DATABASE_URL: db.url });
  const options = campaignsDataSourceOptions(config);
  await runMigrations(options);
  const dataSource = await new DataSource(options).initialize();
  const clock = new CampaignClock(config, new SystemClock());
  const signal = new DispatchSignal();
  const lifecycle = new CampaignLifecycle(
    dataSource,
    config,
    new CampaignsRepository(dataSource),
    undefined as never,
    undefined as never,
    undefined as never,
    signal,
    clock,
  );
  return {
    db,
    dataSource,
    config,
    clock,
    signal,
    lifecycle,
    async close() {
      await dataSource.destroy();
      await db.drop();
    },
  };
}
