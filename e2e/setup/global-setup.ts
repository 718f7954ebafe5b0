import './register-aliases';
import { randomBytes } from 'node:crypto';
import { join, relative } from 'node:path';
import {
  assertJetStream,
  createTestDatabase,
  freePort,
  OFFLINE_SPEECH,
  resolveNats,
  resolvePostgres,
  startPlatform,
  workspaceRoot,
} from '@vap/testing';
import {
  cleanUpRun,
  E2eRun,
  pruneOldLogs,
  RUN_DATABASE_LABEL,
  RUN_PREFIX_LABEL,
  saveRun,
  sweepStaleRuns,
} from './e2e-run';
import { E2E_MEDIA_TIME_SCALE } from '../support/env';
import { createTestCertificates } from './test-certificates';

/**
 * Starts one platform for the whole e2e run, from the build output: a fresh database on the resolved
 * Postgres server, a NATS subject prefix of its own, the services and the gateway(s). Tests reach
 * it through the E2E_* variables set here and isolate themselves by creating their own partners. The voice
 * media plane is part of it; MEDIA_TIME_SCALE in the environment (like any other variable) reaches it.
 *
 * Knobs: E2E_LOG_LEVEL (apps' LOG_LEVEL, default warn), E2E_GATEWAY_REPLICAS (default 1). Any other
 * variable in the environment reaches the apps unchanged, but for those set below, which are the run's own
 * (test mode, its secrets, test-scale limits and offline speech).
 */
export default async function globalSetup(): Promise<void> {
  const root = workspaceRoot();
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const logsRoot = join(root, 'tmp', 'e2e-logs');
  const dataDir = join(root, 'tmp', 'e2e-data');
  pruneOldLogs(logsRoot, 10);
  const run: E2eRun = {
    id,
    logDir: join(logsRoot, id),
    natsDataDir: join(dataDir, `nats-${id}`),
    subjectPrefix: `${RUN_PREFIX_LABEL}_${id}`,
    crashed: [],
    stopping: false,
  };
  const note = (line: string) => process.stdout.write(`[e2e] ${line}\n`);
  const replicas = Number(process.env.E2E_GATEWAY_REPLICAS ?? 1);

  try {
    run.postgres = await resolvePostgres({ dataDir, onNote: note });
    run.nats = await resolveNats({ dataDir: run.natsDataDir, onNote: note });
    await assertJetStream(run.nats.url);
    await sweepStaleRuns(run.postgres.url, run.nats.url);
    run.database = await createTestDatabase(run.postgres.url, RUN_DATABASE_LABEL);

    const adminToken = randomBytes(24).toString('hex');
    const secretsKey = randomBytes(32).toString('hex');
    const tls = createTestCertificates(join(run.logDir, 'tls'));
    // The first gateway's port is fixed up front: it is the public base carriers (and the sandbox) call back.
    const gatewayPort = await freePort();
    run.platform = await startPlatform({
      databaseUrl: run.database.url,
      natsUrl: run.nats.url,
      subjectPrefix: run.subjectPrefix,
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
        // The run's own: the specs' calls speak and hear the platform's offline speech (specs of other
        // providers start platforms of their own with e2e/support/fake-media/ai).
        ...OFFLINE_SPEECH,
        ADMIN_API_TOKEN: adminToken,
        SECRETS_KEY: secretsKey,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        // The run's blobs live with its logs, so runs neither share nor pile up files in .data/.
        BLOB_STORAGE_DIR: join(run.logDir, 'blobs'),
        // Specs exercise many rules with one key; the contract's limits are tested on gateways of their
        // own (e2e/src/gateway/rate-limit.e2e-spec.ts) so the shared platform does not throttle the suite.
        RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
        RATE_LIMIT_CALLS_PER_MINUTE: '100000',
        RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: '100000',
        RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE: '100000',
        // The console's own limits likewise (e2e/src/console/console-live.e2e-spec.ts tests them).
        RATE_LIMIT_CONSOLE_SESSION_PER_MINUTE: '100000',
        RATE_LIMIT_CONSOLE_ACCOUNT_PER_MINUTE: '100000',
        // Every spec calls from one address (loopback): the per-address limits and the operator lockout
        // are tested on a gateway of its own (e2e/src/gateway/address-limits.e2e-spec.ts).
        RATE_LIMIT_ADDRESS_ADMIN_PER_MINUTE: '100000',
        RATE_LIMIT_ADDRESS_CALLBACKS_PER_MINUTE: '100000',
        RATE_LIMIT_ADDRESS_UPLOADS_PER_MINUTE: '100000',
        RATE_LIMIT_ADDRESS_INVALID_KEY_PER_MINUTE: '100000',
        RATE_LIMIT_ADDRESS_CONSOLE_PER_MINUTE: '100000',
        ADMIN_LOCKOUT_AFTER_FAILURES: '100000',
        CALLBACK_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
        MEDIA_TIME_SCALE: E2E_MEDIA_TIME_SCALE,
        // Webhook retries, timeouts, auto-disable and rotation grace on a test scale (e2e/src/webhooks).
        WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s',
        WEBHOOK_RETRY_JITTER: '0',
        WEBHOOK_TIMEOUT_MS: '2000',
        WEBHOOK_AUTO_DISABLE_AFTER: '10s',
        WEBHOOK_SECRET_GRACE: '8s',
        WEBHOOK_POLL_MS: '100',
        // Campaign minutes (retry delays, cooldowns) last half a second, so retry specs run in seconds.
        CAMPAIGNS_TIME_SCALE: '120',
        CAMPAIGNS_DISPATCH_INTERVAL_MS: '200',
        ...(tls ? { NODE_EXTRA_CA_CERTS: tls.caFile } : {}),
      },
      gatewayReplicas: Number.isInteger(replicas) && replicas > 0 ? replicas : 1,
      gatewayPorts: [gatewayPort],
      logDir: run.logDir,
      readyTimeoutMs: 90_000,
    });
    for (const app of run.platform.all()) {
      void app.exited.then((exit) => {
        if (!run.stopping) run.crashed.push({ name: app.name, exit, logFile: app.logFile });
      });
    }

    Object.assign(process.env, {
      E2E_GATEWAY_URL: run.platform.gatewayUrl,
      E2E_GATEWAY_URLS: run.platform.gateways.map((g) => g.url).join(','),
      // Where carriers open media streams (the voice app), as the calls service hands it out.
      E2E_MEDIA_PUBLIC_URL: run.platform.mediaPublicUrl,
      E2E_ADMIN_TOKEN: adminToken,
      E2E_DATABASE_URL: run.database.url,
      E2E_NATS_URL: run.nats.url,
      E2E_NATS_PREFIX: run.subjectPrefix,
      E2E_SECRETS_KEY: secretsKey,
      E2E_LOG_DIR: run.logDir,
      // Everything the run's apps got, for specs that add replicas of a service to the run's queue groups.
      E2E_APP_ENV: JSON.stringify(run.platform.env),
      // name=url pairs of the services' own HTTP ports (health, metrics), for specs that look behind the gateway.
      E2E_SERVICE_URLS: Object.entries(run.platform.services)
        .map(([name, handle]) => `${name}=${handle?.url}`)
        .join(','),
      ...(tls ? { E2E_TLS_CA: tls.caFile, E2E_TLS_CERT: tls.certFile, E2E_TLS_KEY: tls.keyFile } : {}),
    });
    saveRun(run);
  } catch (err) {
    const problems = await cleanUpRun(run);
    const extra = problems.length ? `\n  cleanup: ${problems.join('; ')}` : '';
    throw new Error(
      `e2e setup failed: ${(err as Error).message}${extra}\n  app logs: ${relative(process.cwd(), run.logDir) || run.logDir}`,
    );
  }
}
