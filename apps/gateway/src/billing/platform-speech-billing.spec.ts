// Platform-paid speech in the ledger, against a real Postgres with the gateway migrations and real NATS: a call's
// charge names the cloud speech providers that served it on the platform's keys, whichever path debits it
// (session.completed, handed to the consumer as JetStream would, or the billing reconciler asking the calls
// service over NATS), and GET /billing/transactions and /billing/usage report them from the ledger alone; the
// call's model use (tokens per model, whose key) travels the same way, beside the minutes, never priced. The
// calls service's side of calls.billing.* is a stand-in served over NATS as the calls service serves it.
import { Controller, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  BillingTransactionDto,
  BillingUsageQueryDto,
  ListBillingTransactionsQueryDto,
  UsageGrouping,
} from '@vap/api';
import {
  AcknowledgeChargesRequest,
  CallModelUsage,
  DomainEvent,
  DomainEvents,
  SessionCompletedData,
  Subjects,
  UnbilledCharge,
  UnbilledChargesPage,
} from '@vap/messages';
import {
  Command,
  Data,
  MessagingModule,
  NatsConnectionService,
  NatsRpcServer,
  OutboxService,
  PartnerId,
  RpcClient,
} from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, deleteJetStreamByPrefix, TestDatabase } from '@vap/testing';
import { Partner } from '../accounts/entities/partner.entity';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDataSourceOptions } from '../database/data-source';
import { BillingReconciler } from './billing-reconciler.service';
import { BillingTransactionsService } from './billing-transactions.service';
import { BillingUsageService } from './billing-usage.service';
import { CallChargeService } from './call-charge.service';
import { CallChargesConsumer } from './call-charges.consumer';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
/** INR 6.00 a minute, per second: 10 paise a second. */
const PAISE_PER_SECOND = 10;

/** Usage's token figures of charges that carry no model use. */
const NO_TOKENS = {
  model_input_tokens: 0,
  model_output_tokens: 0,
  platform_model_input_tokens: 0,
  platform_model_output_tokens: 0,
};

/** The calls service's unacknowledged charges, per partner, as calls.billing.unbilled answers them. */
const unbilled = new Map<string, UnbilledCharge[]>();
const acknowledged: string[] = [];

@Controller()
class StandInCallsBilling {
  @Command(Subjects.calls.billingUnbilled)
  unbilled(@PartnerId() partnerId: string): UnbilledChargesPage {
    return { charges: unbilled.get(partnerId) ?? [], nextCursor: null };
  }

  @Command(Subjects.calls.billingAcknowledge)
  acknowledge(@Data() request: AcknowledgeChargesRequest, @PartnerId() partnerId: string) {
    acknowledged.push(...request.callIds);
    unbilled.set(
      partnerId,
      (unbilled.get(partnerId) ?? []).filter((c) => !request.callIds.includes(c.callId)),
    );
    return { acknowledged: request.callIds.length };
  }
}

@Module({})
class StandInCallsModule {}

describe('platform-paid speech in the ledger, transactions and usage', () => {
  const prefix = `speech_${randomBytes(4).toString('hex')}`;
  let db: TestDatabase;
  let dataSource: DataSource;
  let calls: INestApplication;
  let charges: CallChargeService;
  let consumer: CallChargesConsumer;
  let reconciler: BillingReconciler;
  let transactions: BillingTransactionsService;
  let usageService: BillingUsageService;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_gateway_platform_speech');
    const config = Object.assign(new GatewayConfig(), { DATABASE_URL: db.url });
    await runMigrations(gatewayDataSourceOptions(config));
    dataSource = await new DataSource(gatewayDataSourceOptions(config)).initialize();
    calls = await NestFactory.create(
      {
        module: StandInCallsModule,
        imports: [
          // The messaging module keeps its inbox and outbox in a database: this one's messaging tables do.
          TypeOrmModule.forRoot({ ...gatewayDataSourceOptions(config), retryAttempts: 0 }),
          MessagingModule.forRoot({ serviceName: 'calls', url: NATS_URL, subjectPrefix: prefix }),
        ],
        controllers: [StandInCallsBilling],
      },
      { logger: false, abortOnError: false },
    );
    calls.connectMicroservice({ strategy: new NatsRpcServer(calls.get(NatsConnectionService)) });
    await calls.init();
    await calls.startAllMicroservices();
    charges = new CallChargeService(new OutboxService(), config);
    consumer = new CallChargesConsumer(charges);
    // Constructed, not bootstrapped: each test runs a round itself.
    reconciler = new BillingReconciler(dataSource, calls.get(RpcClient), charges, config);
    transactions = new BillingTransactionsService(dataSource);
    usageService = new BillingUsageService(dataSource);
  });

  afterAll(async () => {
    await calls?.close();
    await dataSource?.destroy();
    await db?.drop();
    await deleteJetStreamByPrefix(NATS_URL, prefix).catch(() => undefined);
  });

  async function partner(): Promise<string> {
    const id = randomUUID();
    await dataSource.getRepository(Partner).insert({
      id,
      name: `Speech ${id.slice(0, 8)}`,
      status: 'approved',
      balancePaise: 100_000,
      concurrencyLimit: 5,
      voiceTier: 'standard',
    });
    return id;
  }

  /** session.completed of an answered call of `seconds`, as the calls service records it. */
  function completed(
    partnerId: string,
    agentId: string,
    seconds: number,
    platformSpeech: string[] | undefined,
    modelUsage?: CallModelUsage[],
  ): DomainEvent<SessionCompletedData> {
    const callId = randomUUID();
    const data = {
      session_id: randomUUID(),
      call_id: callId,
      agent_id: agentId,
      credits_used_paise: seconds * PAISE_PER_SECOND,
      duration_seconds: seconds,
      bill_seconds: seconds,
      campaign_id: null,
      project_id: null,
      browser_session_id: null,
      ...(platformSpeech ? { platform_speech_providers: platformSpeech } : {}),
      ...(modelUsage ? { model_usage: modelUsage } : {}),
    } as unknown as SessionCompletedData;
    return {
      id: randomUUID(),
      subject: DomainEvents.sessionCompleted,
      partnerId,
      occurredAt: new Date().toISOString(),
      data,
    };
  }

  const deliver = (event: DomainEvent<SessionCompletedData>) =>
    dataSource.transaction((em) => consumer.charge(event, em));

  async function ledger(partnerId: string): Promise<BillingTransactionDto[]> {
    const query = Object.assign(new ListBillingTransactionsQueryDto(), { limit: 100 });
    return (await transactions.list(partnerId, query)).transactions;
  }

  const usage = (partnerId: string, group_by: UsageGrouping) =>
    usageService.usage(
      partnerId,
      Object.assign(new BillingUsageQueryDto(), {
        from: new Date(Date.now() - 3_600_000).toISOString(),
        to: new Date(Date.now() + 3_600_000).toISOString(),
        group_by,
      }),
    );

  const minutes = (seconds: number) => Math.round((seconds * 100) / 60) / 100;

  it('records the providers of a session.completed charge and sums the minutes of calls that ran on any', async () => {
    const partnerId = await partner();
    const agentA = randomUUID();
    const agentB = randomUUID();
    const paid = completed(partnerId, agentA, 95, ['openai', 'elevenlabs', 'openai']);
    const offline = completed(partnerId, agentA, 40, []);
    const alsoPaid = completed(partnerId, agentB, 61, ['deepgram']);
    const legacy = completed(partnerId, agentB, 30, undefined);
    for (const event of [paid, offline, alsoPaid, legacy]) await deliver(event);
    // A redelivered event debits nothing twice and changes nothing recorded.
    await deliver({ ...paid, id: randomUUID(), data: { ...paid.data, platform_speech_providers: [] } });

    const entries = await ledger(partnerId);
    expect(entries).toHaveLength(4);
    const byCall = new Map(entries.map((e) => [e.call_id, e]));
    expect(byCall.get(paid.data.call_id)).toMatchObject({
      type: 'charge',
      billed_seconds: 95,
      platform_speech_providers: ['elevenlabs', 'openai'],
    });
    expect(byCall.get(offline.data.call_id)?.platform_speech_providers).toEqual([]);
    expect(byCall.get(alsoPaid.data.call_id)?.platform_speech_providers).toEqual(['deepgram']);
    // Written by a calls service that did not say: unknown, and not counted as platform speech.
    expect(byCall.get(legacy.data.call_id)?.platform_speech_providers).toBeNull();

    const platformSeconds = 95 + 61;
    for (const group of ['day', 'agent', 'campaign', 'project'] as const) {
      const report = await usage(partnerId, group);
      expect(report.totals).toEqual({
        calls: 4,
        billed_seconds: 226,
        minutes: minutes(226),
        credits_inr: 22.6,
        platform_speech_billed_seconds: platformSeconds,
        platform_speech_minutes: minutes(platformSeconds),
        ...NO_TOKENS,
      });
      // The buckets add up to the totals, and each is the ledger's own charges.
      expect(report.buckets.reduce((s, b) => s + b.platform_speech_billed_seconds, 0)).toBe(platformSeconds);
      for (const bucket of report.buckets) {
        expect(bucket.platform_speech_billed_seconds).toBeLessThanOrEqual(bucket.billed_seconds);
      }
    }
    const byAgent = new Map((await usage(partnerId, 'agent')).buckets.map((b) => [b.key, b]));
    expect(byAgent.get(agentA)).toMatchObject({
      calls: 2,
      billed_seconds: 135,
      platform_speech_billed_seconds: 95,
      platform_speech_minutes: 1.58,
    });
    expect(byAgent.get(agentB)).toMatchObject({
      calls: 2,
      billed_seconds: 91,
      platform_speech_billed_seconds: 61,
      platform_speech_minutes: 1.02,
    });
    // The ledger's charges say the same: the minutes of those naming a provider.
    const fromLedger = entries
      .filter((e) => e.platform_speech_providers?.length)
      .reduce((s, e) => s + (e.billed_seconds ?? 0), 0);
    expect(fromLedger).toBe(platformSeconds);
  });

  it('records the providers of a charge the billing reconciler collects from the calls service', async () => {
    const partnerId = await partner();
    const agentId = randomUUID();
    const charge = (seconds: number, platformPaidSpeech: string[]): UnbilledCharge => ({
      callId: randomUUID(),
      sessionId: randomUUID(),
      billSeconds: seconds,
      amountPaise: seconds * PAISE_PER_SECOND,
      agentId,
      campaignId: null,
      projectId: null,
      browserSessionId: null,
      platformPaidSpeech,
    });
    const paid = charge(50, ['sarvam', 'azure']);
    const own = charge(70, []);
    unbilled.set(partnerId, [paid, own]);

    expect(await reconciler.reconcile()).toBeGreaterThanOrEqual(2);
    expect(acknowledged).toEqual(expect.arrayContaining([paid.callId, own.callId]));
    const byCall = new Map((await ledger(partnerId)).map((e) => [e.call_id, e]));
    expect(byCall.get(paid.callId)).toMatchObject({
      billed_seconds: 50,
      amount_inr: -5,
      platform_speech_providers: ['azure', 'sarvam'],
    });
    expect(byCall.get(own.callId)?.platform_speech_providers).toEqual([]);

    // The call's session.completed arriving after the reconciler changes nothing.
    const late = completed(partnerId, agentId, 50, ['openai']);
    await deliver({ ...late, data: { ...late.data, call_id: paid.callId } });
    expect(byCall.get(paid.callId)).toEqual((await ledger(partnerId)).find((e) => e.call_id === paid.callId));
    const report = await usage(partnerId, 'agent');
    expect(report.buckets).toEqual([
      {
        key: agentId,
        calls: 2,
        billed_seconds: 120,
        minutes: 2,
        credits_inr: 12,
        platform_speech_billed_seconds: 50,
        platform_speech_minutes: 0.83,
        ...NO_TOKENS,
      },
    ]);
  });

  it('shows no providers on transactions that are not charges, and no platform minutes without charges', async () => {
    const partnerId = await partner();
    await dataSource.query(
      `INSERT INTO gateway.ledger_entries (id, partner_id, type, amount_paise, balance_after_paise, reason)
       VALUES ($1, $2, 'top_up', 100000, 100000, 'opening_balance')`,
      [randomUUID(), partnerId],
    );
    const [topUp] = await ledger(partnerId);
    expect(topUp).toMatchObject({ type: 'top_up', platform_speech_providers: null, model_usage: null });
    expect((await usage(partnerId, 'day')).totals).toMatchObject({
      platform_speech_billed_seconds: 0,
      platform_speech_minutes: 0,
      ...NO_TOKENS,
    });
  });

  const use = (
    provider: CallModelUsage['provider'],
    model: string,
    paid_by: CallModelUsage['paid_by'],
    input_tokens: number,
    output_tokens: number,
    replies = 1,
  ): CallModelUsage => ({ provider, model, paid_by, input_tokens, output_tokens, replies });

  it('keeps each charge’s model use beside its minutes, and usage sums the tokens and the platform’s part', async () => {
    const partnerId = await partner();
    const agentA = randomUUID();
    const agentB = randomUUID();
    // The platform's Groq key, then the account's own Anthropic key as the fallback.
    const mixed = completed(
      partnerId,
      agentA,
      60,
      [],
      [
        use('groq', 'llama-3.1-8b-instant', 'platform', 1200, 80, 2),
        use('anthropic', 'claude-3-5-haiku-latest', 'account', 700, 40),
      ],
    );
    const own = completed(partnerId, agentB, 30, [], [use('custom', 'partner-model', 'account', 300, 25)]);
    const offline = completed(partnerId, agentB, 15, [], [use('offline', 'offline', null, 0, 0, 3)]);
    const legacy = completed(partnerId, agentA, 10, []);
    for (const event of [mixed, own, offline, legacy]) await deliver(event);
    // Redelivered with other figures: the charge and what it recorded stand.
    await deliver({ ...mixed, id: randomUUID(), data: { ...mixed.data, model_usage: [] } });

    const byCall = new Map((await ledger(partnerId)).map((e) => [e.call_id, e]));
    expect(byCall.get(mixed.data.call_id)).toMatchObject({
      type: 'charge',
      // The minutes only: model use on the platform's keys is within the minute price.
      amount_inr: -6,
      billed_seconds: 60,
      model_usage: mixed.data.model_usage,
    });
    expect(byCall.get(own.data.call_id)?.model_usage).toEqual(own.data.model_usage);
    expect(byCall.get(offline.data.call_id)?.model_usage).toEqual(offline.data.model_usage);
    // Written by a calls service that did not say: unknown, counted as none.
    expect(byCall.get(legacy.data.call_id)?.model_usage).toBeNull();

    const totals = (await usage(partnerId, 'day')).totals;
    expect(totals).toMatchObject({
      calls: 4,
      billed_seconds: 115,
      credits_inr: 11.5,
      model_input_tokens: 1200 + 700 + 300,
      model_output_tokens: 80 + 40 + 25,
      platform_model_input_tokens: 1200,
      platform_model_output_tokens: 80,
    });
    const byAgent = new Map((await usage(partnerId, 'agent')).buckets.map((b) => [b.key, b]));
    expect(byAgent.get(agentA)).toMatchObject({
      model_input_tokens: 1900,
      model_output_tokens: 120,
      platform_model_input_tokens: 1200,
      platform_model_output_tokens: 80,
    });
    expect(byAgent.get(agentB)).toMatchObject({
      model_input_tokens: 300,
      model_output_tokens: 25,
      platform_model_input_tokens: 0,
      platform_model_output_tokens: 0,
    });
  });

  it('keeps the model use of a charge the reconciler collects, dropping entries that are not well formed', async () => {
    const partnerId = await partner();
    const agentId = randomUUID();
    const callId = randomUUID();
    unbilled.set(partnerId, [
      {
        callId,
        sessionId: randomUUID(),
        billSeconds: 20,
        amountPaise: 20 * PAISE_PER_SECOND,
        agentId,
        campaignId: null,
        projectId: null,
        browserSessionId: null,
        platformPaidSpeech: [],
        modelUsage: [
          use('openai', 'gpt-4o-mini', 'platform', 512, 64),
          { ...use('openai', 'gpt-4o', 'platform', 5, 5), input_tokens: -5 },
          { ...use('openai', 'gpt-4o', 'platform', 5, 5), paid_by: 'someone' as never },
        ],
      },
    ]);
    await reconciler.reconcile();
    const [entry] = await ledger(partnerId);
    expect(entry).toMatchObject({
      call_id: callId,
      amount_inr: -2,
      model_usage: [use('openai', 'gpt-4o-mini', 'platform', 512, 64)],
    });
    expect((await usage(partnerId, 'day')).totals).toMatchObject({
      model_input_tokens: 512,
      platform_model_output_tokens: 64,
    });
  });
});
