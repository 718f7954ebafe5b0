// The health recorder's reason mapping, and its writes against a real Postgres with the calls migrations.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallsConfig } from '../../../config/calls.config';
import { callsDataSourceOptions } from '../../../database/data-source';
import { saveConnection } from '../../../testing/call-rows';
import { ConnectionHealthRow } from '../entities/connection-health.entity';
import { ConnectionHealthRecorder, failureReasonOf, writeHealthEvent } from './connection-health.recorder';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('failureReasonOf', () => {
  it.each([
    [401, 'credentials_rejected'],
    [403, 'credentials_rejected'],
    [404, 'account_not_found'],
    [400, 'carrier_error'],
    [429, 'carrier_error'],
    [503, 'carrier_error'],
  ])('reads HTTP %i as %s', (status, reason) => expect(failureReasonOf(status)).toBe(reason));
});

describe('ConnectionHealthRecorder', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_connection_health');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const row = (connectionId: string) =>
    dataSource.getRepository(ConnectionHealthRow).findOneByOrFail({ connectionId });

  it('keeps each kind in its own columns', async () => {
    const id = await saveConnection(dataSource, randomUUID(), 'carrier_b');
    const recorder = new ConnectionHealthRecorder(dataSource);
    recorder.success(id, 'POST /Calls.json');
    recorder.failure(id, 'GET account', 401);
    recorder.callback(id);
    await recorder.onModuleDestroy();
    expect(await row(id)).toMatchObject({
      lastSuccessOperation: 'POST /Calls.json',
      lastSuccessAt: expect.any(Date),
      lastFailureOperation: 'GET account',
      lastFailureStatus: 401,
      lastFailureReason: 'credentials_rejected',
      lastCallbackAt: expect.any(Date),
    });
  });

  it('records no answer as unreachable, with no status', async () => {
    const id = await saveConnection(dataSource, randomUUID(), 'carrier_a');
    const recorder = new ConnectionHealthRecorder(dataSource);
    recorder.failure(id, 'POST /Call/', null);
    await recorder.onModuleDestroy();
    expect(await row(id)).toMatchObject({
      lastFailureStatus: null,
      lastFailureReason: 'unreachable',
      lastSuccessAt: null,
    });
  });

  it('never moves a time back: an older write (another replica’s trailing one) keeps the newer', async () => {
    const id = await saveConnection(dataSource, randomUUID(), 'carrier_b');
    const newer = new Date('2026-01-01T10:00:05.000Z');
    const older = new Date('2026-01-01T10:00:01.000Z');
    await writeHealthEvent(dataSource, id, { kind: 'success', at: newer, operation: 'GET /Calls/{id}.json' });
    await writeHealthEvent(dataSource, id, { kind: 'success', at: older, operation: 'POST /Calls.json' });
    await writeHealthEvent(dataSource, id, { kind: 'callback', at: older });
    expect(await row(id)).toMatchObject({
      lastSuccessAt: newer,
      lastSuccessOperation: 'GET /Calls/{id}.json',
      lastCallbackAt: older,
    });
  });

  it('ignores what names no connection id', async () => {
    const rows = () => dataSource.getRepository(ConnectionHealthRow).count();
    const before = await rows();
    const recorder = new ConnectionHealthRecorder(dataSource);
    recorder.success('not-a-uuid', 'GET account');
    await recorder.onModuleDestroy();
    expect(await rows()).toBe(before);
  });
});
