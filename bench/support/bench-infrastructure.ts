import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  createTestDatabase,
  deleteJetStreamByPrefix,
  ResolvedNats,
  resolveNats,
  resolvePostgres,
  TestDatabase,
  workspaceRoot,
} from '@vap/testing';

export interface BenchInfrastructure {
  db: TestDatabase;
  nats: ResolvedNats;
  /** NATS subject prefix of this run, so a benchmark never meets another deployment's traffic. */
  prefix: string;
  /** Removes the run's stream and database, then stops whatever Postgres or NATS was started for it. */
  close(): Promise<void>;
}

/**
 * What every benchmark runs on: Postgres and NATS found the way `npm start` finds them, a fresh database
 * and a subject prefix of its own.
 */
export async function openBenchInfrastructure(databaseLabel: string): Promise<BenchInfrastructure> {
  const dataDir = join(workspaceRoot(), '.data');
  const pg = await resolvePostgres({ dataDir });
  const nats = await resolveNats({ dataDir });
  const db = await createTestDatabase(pg.url, databaseLabel);
  const prefix = `bench_${randomBytes(3).toString('hex')}`;
  return {
    db,
    nats,
    prefix,
    async close() {
      await deleteJetStreamByPrefix(nats.url, prefix).catch(() => undefined);
      await db.drop();
      await nats.stop();
      await pg.stop();
    },
  };
}
