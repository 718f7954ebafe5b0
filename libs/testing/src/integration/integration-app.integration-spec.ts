// IntegrationApp on a probe service of its own (libs do not import apps): a small schema, serviceCoreModules,
// and the webhooks service's name so its built-in health ping is a named command of its own.
import { DynamicModule, Module } from '@nestjs/common';
import { Client } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { AppError, SpeechPlan } from '@vap/messages';
import { connect } from 'nats';
import { createMessagingTables, MESSAGING_ENTITIES, NatsConnectionService, RpcClient } from '@vap/messaging';
import { schemaDataSourceOptions } from '@vap/persistence';
import { BaseServiceConfig, Clock, serviceCoreModules } from '@vap/runtime';
import { deleteJetStreamByPrefix } from '@vap/testing';
import { IntegrationApp, IntegrationAppDefinition } from './integration-app';
import { useIntegrationApp } from './use-integration-app';

class ProbeSchema1700000000000 implements MigrationInterface {
  name = 'ProbeSchema1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, 'probe');
  }
  async down(): Promise<void> {}
}

@Module({})
class ProbeModule {}

const probe: IntegrationAppDefinition<BaseServiceConfig> = {
  name: 'webhooks',
  configClass: BaseServiceConfig,
  module: (config): DynamicModule => ({
    module: ProbeModule,
    imports: serviceCoreModules('webhooks', config, probeDataSource(config)),
  }),
  dataSource: probeDataSource,
};

function probeDataSource(config: BaseServiceConfig) {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: 'probe',
    entities: MESSAGING_ENTITIES,
    migrations: [ProbeSchema1700000000000],
    poolSize: 2,
  });
}

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const PLAN: SpeechPlan = { tts: [], stt: [], keyterms: ['Maya'], pronunciations: [] };

async function databaseExists(name: string): Promise<boolean> {
  const admin = new Client({
    connectionString: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await admin.connect();
  const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  await admin.end();
  return found.rowCount === 1;
}

describe('IntegrationApp', () => {
  const it_ = useIntegrationApp(() =>
    IntegrationApp.start(probe, { clockStart: new Date('2027-03-14T06:55:00Z') }),
  );

  it('gives the app the manual clock', () => {
    const clock = it_.get(Clock);
    expect(clock).toBe(it_.clock);
    it_.clock.advance(60_000);
    expect(clock.now().toISOString()).toBe('2027-03-14T06:56:00.000Z');
  });

  it("answers the app's command with a fake peer's typed reply, in the platform's envelope", async () => {
    it_.peers.answer('agents.speech.plan', (request, { partnerId }) => ({
      ...PLAN,
      keyterms: [...PLAN.keyterms, request.voiceId, String(partnerId)],
    }));
    const rpc = it_.get<RpcClient>(RpcClient);
    const plan = await rpc.request('agents.speech.plan', 'partner-1', {
      callId: 'c1',
      voiceId: 'v1',
      fallbackVoiceIds: [],
      transcriber: null,
      fallbackTranscriber: null,
      dictionaryIds: [],
      spokenLanguages: ['en'],
    });
    expect(plan.keyterms).toEqual(['Maya', 'v1', 'partner-1']);
    expect(it_.peers.received).toContainEqual(
      expect.objectContaining({ subject: 'agents.speech.plan', partnerId: 'partner-1' }),
    );
  });

  it('fails a command no peer was given at once, naming the subject', async () => {
    const rpc = it_.get<RpcClient>(RpcClient);
    const started = Date.now();
    const err = await rpc.request('agents.model.list', null, {} as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toContain("peers.answer('agents.model.list'");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(it_.peers.unanswered).toEqual(['agents.model.list']);
  });

  it('refuses a subject that is not a named command, and the app own commands', () => {
    expect(() => it_.peers.answer('agents.nothing.here' as never, () => undefined as never)).toThrow(
      'agents.nothing.here is not a named command subject',
    );
    expect(() => it_.peers.answer('webhooks.health.ping', () => ({ service: 'x', ok: true }))).toThrow(
      /own command/,
    );
  });

  it('sends the app a command as a peer would', async () => {
    await expect(it_.send('webhooks.health.ping', null, {})).resolves.toEqual({
      service: 'webhooks',
      ok: true,
    });
  });

  it('listens on HTTP on 127.0.0.1 when asked, the definition naming that address in its settings', async () => {
    expect(it_.url).toBeNull();
    const named: string[] = [];
    const http = await IntegrationApp.start(
      {
        ...probe,
        httpEnv: (url) => {
          named.push(url);
          return {};
        },
      },
      { http: true },
    );
    try {
      expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(named).toEqual([http.url]);
      // The probe has no routes: Nest's own 404 answers from the app's HTTP server.
      expect((await fetch(`${http.url}/nothing`)).status).toBe(404);
    } finally {
      await http.stop();
    }
  });

  it('tears down: no database, no JetStream streams of its prefix', async () => {
    const other = await IntegrationApp.start(probe);
    const { name } = other.db!;
    const nc = await connect({ servers: NATS_URL });
    const jsm = await nc.jetstreamManager();
    const stream = other.get(NatsConnectionService).streamName;
    await expect(jsm.streams.info(stream)).resolves.toBeDefined();
    await other.stop();
    await expect(jsm.streams.info(stream)).rejects.toThrow(/not found/);
    await nc.close();
    expect(await databaseExists(name)).toBe(false);
    expect(await deleteJetStreamByPrefix(NATS_URL, other.prefix)).toEqual({ streams: [], consumers: [] });
  });
});

describe('useIntegrationApp', () => {
  const stopping: { step: string; database: string; existed: boolean }[] = [];
  let database = '';
  let early: unknown;

  describe('a suite that uses it', () => {
    const app = useIntegrationApp(() => IntegrationApp.start(probe), {
      // The app is still there to read: its database, not yet dropped.
      beforeStop: async (): Promise<void> => {
        stopping.push({ step: 'beforeStop', database, existed: await databaseExists(app.db!.name) });
      },
      afterStop: async () =>
        stopping.push({ step: 'afterStop', database, existed: await databaseExists(database) }),
    });
    try {
      early = app.prefix;
    } catch (err) {
      early = err;
    }

    it('hands the tests the app its beforeAll started', async () => {
      database = app.db!.name;
      expect(await databaseExists(database)).toBe(true);
      await expect(app.send('webhooks.health.ping', null, {})).resolves.toEqual({
        service: 'webhooks',
        ok: true,
      });
    });
  });

  it('refuses a read of the app before its beforeAll ran', () => {
    expect(early).toBeInstanceOf(Error);
    expect((early as Error).message).toContain('before its beforeAll started it');
  });

  it("runs beforeStop after the suite's tests with the app still running, then stops it, then runs afterStop", () => {
    expect(stopping).toEqual([
      { step: 'beforeStop', database, existed: true },
      { step: 'afterStop', database, existed: false },
    ]);
  });
});
