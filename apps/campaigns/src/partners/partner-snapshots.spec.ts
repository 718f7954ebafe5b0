// The campaigns service's copy of a partner against real Postgres: views arrive from two event streams and
// from start/resume commands in any order, and only a newer version of the partner replaces the kept one.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { DomainEvent, DomainEvents, PartnerContext } from '@vap/messages';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { runMigrations } from '@vap/persistence';
import { CampaignsConfig } from '../config/campaigns.config';
import { campaignsDataSourceOptions } from '../database/data-source';
import { PartnerEventsConsumer } from './partner-events.consumer';
import { PartnerSnapshots } from './partner-snapshots';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('partner snapshots', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let snapshots: PartnerSnapshots;
  let consumer: PartnerEventsConsumer;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_campaigns_partners');
    const options = campaignsDataSourceOptions(
      Object.assign(new CampaignsConfig(), { DATABASE_URL: db.url }),
    );
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    snapshots = new PartnerSnapshots(dataSource);
    consumer = new PartnerEventsConsumer(snapshots);
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  function dto(id: string, status: PartnerDto['status'], version: number, balanceInr = 100): PartnerDto {
    const at = new Date().toISOString();
    return {
      id,
      name: 'Acme',
      status,
      balance_inr: balanceInr,
      concurrency_limit: 5,
      voice_tier: 'standard',
      created_at: at,
      updated_at: at,
      version,
      reseller: false,
      reseller_id: null,
      price_per_minute_inr: null,
    };
  }

  function event(subject: string, data: PartnerDto): DomainEvent<PartnerDto> {
    return { id: randomUUID(), subject, partnerId: data.id, occurredAt: new Date().toISOString(), data };
  }

  const context = (id: string, status: PartnerContext['status'], version: number): PartnerContext => ({
    id,
    status,
    voiceTier: 'standard',
    concurrencyLimit: 5,
    balancePaise: 10_000,
    pricePerMinutePaise: null,
    version,
  });

  it('an older partner event that arrives after a newer one does not un-suspend the partner', async () => {
    const id = randomUUID();
    await consumer.created(event(DomainEvents.partnerCreated, dto(id, 'approved', 1)), dataSource.manager);
    await consumer.updated(event(DomainEvents.partnerUpdated, dto(id, 'suspended', 3)), dataSource.manager);
    // A balance debit recorded before the suspension, delivered late.
    await consumer.updated(
      event(DomainEvents.partnerUpdated, dto(id, 'approved', 2, 90)),
      dataSource.manager,
    );
    expect(await snapshots.get(id)).toMatchObject({ status: 'suspended', balancePaise: 10_000, version: 3 });
  });

  it('a start or resume carrying an older snapshot does not overwrite a newer one; a newer one does', async () => {
    const id = randomUUID();
    await snapshots.save(context(id, 'suspended', 5));
    await snapshots.save(context(id, 'approved', 4));
    expect(await snapshots.get(id)).toMatchObject({ status: 'suspended', version: 5 });
    await consumer.updated(
      event(DomainEvents.partnerUpdated, dto(id, 'approved', 6, 75)),
      dataSource.manager,
    );
    expect(await snapshots.get(id)).toMatchObject({ status: 'approved', balancePaise: 7_500, version: 6 });
  });
});
