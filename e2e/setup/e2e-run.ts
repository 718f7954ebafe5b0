import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'nats';
import { Client } from 'pg';
import {
  deleteJetStreamByPrefix,
  ExitInfo,
  Platform,
  ResolvedNats,
  ResolvedPostgres,
  TestDatabase,
} from '@vap/testing';

/** What global setup started, for global teardown (both run in Jest's main process). */
export interface E2eRun {
  id: string;
  logDir: string;
  natsDataDir: string;
  subjectPrefix: string;
  postgres?: ResolvedPostgres;
  nats?: ResolvedNats;
  database?: TestDatabase;
  platform?: Platform;
  /** Apps that exited while the tests ran (they should only exit at teardown). */
  crashed: { name: string; exit: ExitInfo; logFile?: string }[];
  stopping: boolean;
}

const KEY = '__VAP_E2E_RUN__';

export function saveRun(run: E2eRun): void {
  (globalThis as Record<string, unknown>)[KEY] = run;
}

export function takeRun(): E2eRun | undefined {
  const run = (globalThis as Record<string, unknown>)[KEY] as E2eRun | undefined;
  delete (globalThis as Record<string, unknown>)[KEY];
  return run;
}

export const RUN_DATABASE_LABEL = 'vap_e2e';
export const RUN_PREFIX_LABEL = 'e2e';

/**
 * Stops what a run started and removes what it created: apps, its JetStream stream and consumers, its
 * database, then any Postgres/NATS it started itself. Tries every step; returns the problems.
 */
export async function cleanUpRun(run: E2eRun): Promise<string[]> {
  run.stopping = true;
  const problems: string[] = [];
  const step = async (what: string, work: () => Promise<unknown> | undefined) => {
    try {
      await work();
    } catch (err) {
      problems.push(`${what}: ${(err as Error).message}`);
    }
  };
  await step('stopping the apps', () => run.platform?.stop());
  if (run.nats)
    await step('deleting JetStream resources', () =>
      deleteJetStreamByPrefix(run.nats!.url, run.subjectPrefix),
    );
  await step('dropping the database', () => run.database?.drop());
  await step('stopping NATS', () => run.nats?.stop());
  rmSync(run.natsDataDir, { recursive: true, force: true });
  await step('stopping Postgres', () => run.postgres?.stop());
  return problems;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const runTime = (stamp: string) => parseInt(stamp, 36);

/**
 * Removes what killed runs left behind, older than a day (so never a concurrent run's): databases named
 * vap_e2e_<time>_<hex>, and streams of e2e_<time>_<hex> prefixes. Best effort.
 */
export async function sweepStaleRuns(serverUrl: string, natsUrl: string): Promise<void> {
  const cutoff = Date.now() - DAY_MS;
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${RUN_DATABASE_LABEL}\\_%`],
    );
    for (const { datname } of rows) {
      const stamp = new RegExp(`^${RUN_DATABASE_LABEL}_([0-9a-z]+)_[0-9a-f]{6}$`).exec(datname)?.[1];
      if (stamp && runTime(stamp) < cutoff) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
      }
    }
  } catch {
    // Best effort.
  } finally {
    await client.end().catch(() => undefined);
  }
  try {
    const nc = await connect({ servers: natsUrl, timeout: 3000, maxReconnectAttempts: 0 });
    const prefixes = new Set<string>();
    try {
      const jsm = await nc.jetstreamManager();
      for await (const stream of jsm.streams.list()) {
        const match = new RegExp(`^(?:KV_|OBJ_)?(${RUN_PREFIX_LABEL}_([0-9a-z]+)_[0-9a-f]{6})_`).exec(
          stream.config.name,
        );
        if (match && runTime(match[2]) < cutoff) prefixes.add(match[1]);
      }
    } finally {
      await nc.close();
    }
    for (const prefix of prefixes) await deleteJetStreamByPrefix(natsUrl, prefix).catch(() => undefined);
  } catch {
    // Best effort.
  }
}

/** Keeps the newest `keep` run folders under `dir`. */
export function pruneOldLogs(dir: string, keep: number): void {
  let entries: { path: string; mtime: number }[];
  try {
    entries = readdirSync(dir).map((name) => ({
      path: join(dir, name),
      mtime: statSync(join(dir, name)).mtimeMs,
    }));
  } catch {
    return;
  }
  entries.sort((a, b) => b.mtime - a.mtime);
  for (const old of entries.slice(keep)) rmSync(old.path, { recursive: true, force: true });
}
