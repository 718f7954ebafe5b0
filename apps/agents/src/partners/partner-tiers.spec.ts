// The agents service's copy of each partner's voice tier, against real Postgres and NATS JetStream: views arrive
// from two event streams in any order and only a newer version replaces the kept one; the tier a command runs
// with is the caller's snapshot, else the kept tier, else the base tier; and the gateway's events reach the
// table through the service's own durable consumers.
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, DataSourceOptions } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { DomainEvent, DomainEvents, PartnerContext, VoiceTier } from '@vap/messages';
import { encodeJson, MessagingModule, NatsConnectionService } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase, waitFor } from '@vap/testing';
import { AgentsConfig } from '../config/agents.config';
import { agentsDataSourceOptions } from '../database/data-source';
import { PartnerEventsConsumer } from './partner-events.consumer';
import { PartnerTiers } from './partner-tiers';
import { PartnersModule } from './partners.module';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

function dto(id: string, voiceTier: VoiceTier, version: number | undefined): PartnerDto {
  const at = new Date().toISOString();
  const partner: PartnerDto = {
    id,
    name: 'Acme',
    status: 'approved',
    balance_inr: 100,
    concurrency_limit: 5,
    voice_tier: voiceTier,
    created_at: at,
    updated_at: at,
    version: version ?? 0,
    reseller: false,
    reseller_id: null,
    price_per_minute_inr: null,
  };
  // Events recorded before partners had versions.
  if (version === undefined) delete (partner as Partial<PartnerDto>).version;
  return partner;
}

function event(subject: string, data: PartnerDto): DomainEvent<PartnerDto> {
  return { id: randomUUID(), subject, partnerId: data.id, occurredAt: new Date().toISOString(), data };
}

const snapshot = (id: string, voiceTier: string): PartnerContext => ({
  id,
  status: 'approved',
  voiceTier,
  concurrencyLimit: 5,
  balancePaise: 10_000,
  pricePerMinutePaise: null,
  version: 1,
});

describe('partner tiers', () => {
  let db: TestDatabase;
  let options: DataSourceOptions;
  let dataSource: DataSource;
  let tiers: PartnerTiers;
  let consumer: PartnerEventsConsumer;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_agents_partner_tiers');
    options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    tiers = new PartnerTiers(dataSource);
    consumer = new PartnerEventsConsumer(tiers);
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('keeps the tier of the newest version, whatever order the events arrive in', async () => {
    const id = randomUUID();
    await consumer.updated(event(DomainEvents.partnerUpdated, dto(id, 'premium', 2)), dataSource.manager);
    // The created event comes on its own stream and may be handled after the update.
    await consumer.created(event(DomainEvents.partnerCreated, dto(id, 'standard', 1)), dataSource.manager);
    expect(await tiers.get(id)).toEqual({ partnerId: id, voiceTier: 'premium', version: 2 });

    await consumer.updated(event(DomainEvents.partnerUpdated, dto(id, 'enterprise', 4)), dataSource.manager);
    // A downgrade recorded before the upgrade, delivered late.
    await consumer.updated(event(DomainEvents.partnerUpdated, dto(id, 'standard', 3)), dataSource.manager);
    expect(await tiers.get(id)).toEqual({ partnerId: id, voiceTier: 'enterprise', version: 4 });

    // An event without a version is older than any versioned view.
    await consumer.updated(
      event(DomainEvents.partnerUpdated, dto(id, 'standard', undefined)),
      dataSource.manager,
    );
    expect((await tiers.get(id))?.voiceTier).toBe('enterprise');
  });

  it('takes an unversioned partner, then replaces it with the first versioned view', async () => {
    const id = randomUUID();
    await consumer.created(
      event(DomainEvents.partnerCreated, dto(id, 'premium', undefined)),
      dataSource.manager,
    );
    expect(await tiers.get(id)).toEqual({ partnerId: id, voiceTier: 'premium', version: 0 });
    await consumer.updated(event(DomainEvents.partnerUpdated, dto(id, 'standard', 1)), dataSource.manager);
    expect(await tiers.get(id)).toEqual({ partnerId: id, voiceTier: 'standard', version: 1 });
  });

  it('runs a command on the caller’s snapshot, else the kept tier, else the base tier', async () => {
    const known = randomUUID();
    await consumer.created(event(DomainEvents.partnerCreated, dto(known, 'premium', 1)), dataSource.manager);
    expect(await tiers.voiceTierFor(known)).toBe('premium');
    // The gateway's snapshot is the partner as of the request: it decides when present.
    expect(await tiers.voiceTierFor(known, snapshot(known, 'enterprise'))).toBe('enterprise');
    expect(await tiers.voiceTierFor(randomUUID())).toBe('standard');
    // A malformed id is a partner nobody knows, not a database error.
    expect(await tiers.voiceTierFor('not-a-uuid')).toBe('standard');
  });

  describe('from the gateway’s events on JetStream', () => {
    const prefix = `tiers_${randomBytes(4).toString('hex')}`;
    let app: INestApplicationContext;
    let gateway: NatsConnectionService;

    beforeAll(async () => {
      @Module({
        imports: [
          TypeOrmModule.forRoot(options),
          MessagingModule.forRoot({ serviceName: 'agents', url: NATS_URL, subjectPrefix: prefix }),
          PartnersModule,
        ],
      })
      class AgentsPartnersTestModule {}
      app = await NestFactory.createApplicationContext(AgentsPartnersTestModule, { logger: false });
      await app.init();
      gateway = new NatsConnectionService({ serviceName: 'gateway', url: NATS_URL, subjectPrefix: prefix });
      await gateway.onModuleInit();
    });

    afterAll(async () => {
      await app?.close();
      if (gateway) {
        const jsm = await gateway.jsm();
        await jsm.streams.delete(gateway.streamName).catch(() => undefined);
        await gateway.onApplicationShutdown();
      }
    });

    /** What the gateway's outbox relay does with a recorded partner event. */
    async function publish(e: DomainEvent<PartnerDto>): Promise<void> {
      await gateway.js().publish(gateway.subject(e.subject), encodeJson(e), { msgID: e.id });
    }

    it('consumes partner.created and partner.updated under the agents service’s durable names', async () => {
      const jsm = await gateway.jsm();
      for (const [durable, subject] of [
        ['agents__partner_created', DomainEvents.partnerCreated],
        ['agents__partner_updated', DomainEvents.partnerUpdated],
      ]) {
        const info = await jsm.consumers.info(gateway.streamName, durable);
        expect(info.config.filter_subject).toBe(gateway.subject(subject));
      }
    });

    it('keeps the tier a partner is created with, then the tier it is upgraded to', async () => {
      const id = randomUUID();
      await publish(event(DomainEvents.partnerCreated, dto(id, 'standard', 1)));
      await waitFor(async () => (await tiers.get(id))?.version === 1, { description: 'the created partner' });
      expect((await tiers.get(id))?.voiceTier).toBe('standard');

      await publish(event(DomainEvents.partnerUpdated, dto(id, 'premium', 2)));
      await waitFor(async () => (await tiers.get(id))?.version === 2, { description: 'the upgrade' });
      expect(await tiers.voiceTierFor(id)).toBe('premium');
    });
  });
});
