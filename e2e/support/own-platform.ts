import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  BackendService,
  createTestDatabase,
  deleteJetStreamByPrefix,
  freePort,
  OFFLINE_SPEECH,
  Platform,
  startPlatform,
  StartPlatformOptions,
  TestDatabase,
} from '@vap/testing';
import { E2E_MEDIA_TIME_SCALE, e2eEnv } from './env';

/**
 * The services a carrier call through the gateway needs: the agent, the call and its media. A spec's platform
 * adds what else it uses (the sandbox carrier, webhook deliveries, test runs).
 */
export const CALL_SERVICES: readonly BackendService[] = ['agents', 'calls', 'voice'];

export interface OwnPlatformOptions extends Omit<
  StartPlatformOptions,
  'databaseUrl' | 'natsUrl' | 'subjectPrefix' | 'gatewayPorts' | 'logDir'
> {
  /** Names the database (`vap_e2e_<name>`), the subject prefix (`<run's>_<name>_<random>`) and the logs folder. */
  name: string;
  /** The Postgres server its database is made on (default the run's): a spec's own, to stop and start. */
  postgresUrl?: string;
}

export interface OwnPlatform {
  platform: Platform;
  db: TestDatabase;
  /** NATS_SUBJECT_PREFIX of this platform. */
  prefix: string;
  /** Stops the apps, drops the database and deletes the prefix's JetStream streams. */
  stop(): Promise<void>;
}

/**
 * A platform of the spec's own, beside the run's: its own database and NATS subject prefix, so that its
 * services share no commands, events or rows with the run's. The spec's env and options come on top of
 * the base (test mode, the run's admin token and secrets key, callbacks to its gateway, rate limits out
 * of the way, offline speech).
 */
export async function startOwnPlatform({
  name,
  env,
  postgresUrl,
  ...options
}: OwnPlatformOptions): Promise<OwnPlatform> {
  const run = e2eEnv();
  const db = await createTestDatabase(postgresUrl ?? run.databaseUrl, `vap_e2e_${name}`);
  // Unique beyond the name: a retried test's platform never meets the streams its first attempt left.
  const prefix = `${run.natsPrefix}_${name}_${randomBytes(3).toString('hex')}`;
  const cleanUp = async () => {
    await db.drop();
    await deleteJetStreamByPrefix(run.natsUrl, prefix).catch(() => undefined);
  };
  const gatewayPort = await freePort();
  const appEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    ADMIN_API_TOKEN: run.adminToken,
    SECRETS_KEY: run.secretsKey,
    CALLBACK_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
    RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
    RATE_LIMIT_CALLS_PER_MINUTE: '100000',
    RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: '100000',
    RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE: '100000',
    RATE_LIMIT_CONSOLE_SESSION_PER_MINUTE: '100000',
    RATE_LIMIT_CONSOLE_ACCOUNT_PER_MINUTE: '100000',
    MEDIA_TIME_SCALE: E2E_MEDIA_TIME_SCALE,
    ...OFFLINE_SPEECH,
    ...env,
  };
  let platform: Platform;
  try {
    platform = await startPlatform({
      readyTimeoutMs: 90_000,
      ...options,
      databaseUrl: db.url,
      natsUrl: run.natsUrl,
      subjectPrefix: prefix,
      gatewayPorts: [gatewayPort],
      logDir: run.logDir ? join(run.logDir, name) : undefined,
      env: appEnv,
    });
  } catch (err) {
    await cleanUp();
    throw err;
  }
  return {
    platform,
    db,
    prefix,
    async stop() {
      // The database and streams go even when an app would not stop, so a failed run leaves nothing behind.
      try {
        await platform.stop();
      } finally {
        await cleanUp();
      }
    },
  };
}

/**
 * Extra gateway replicas on the run's database and subjects, with the contract's rate limits (the run's
 * own gateway lifts them): for specs of the limits themselves. `env` comes on top.
 */
export function startRunGateways(replicas: number, env: Record<string, string> = {}): Promise<Platform> {
  const run = e2eEnv();
  return startPlatform({
    databaseUrl: run.databaseUrl,
    natsUrl: run.natsUrl,
    subjectPrefix: run.natsPrefix,
    services: [],
    gatewayReplicas: replicas,
    env: {
      ADMIN_API_TOKEN: run.adminToken,
      SECRETS_KEY: run.secretsKey,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_GENERAL_PER_MINUTE: '60',
      RATE_LIMIT_CALLS_PER_MINUTE: '10',
      ...env,
    },
  });
}
