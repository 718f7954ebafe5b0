import 'reflect-metadata';
import { createServer } from 'node:http';
import { OfflineCalleeVoice } from '@vap/carrier-sim';
import { whenParentGone } from '@vap/lifecycle';
import { ConfigError, validateConfig } from '@vap/runtime';
import { SandboxCarrierConfig } from './config/sandbox-carrier.config';
import { SimulatedCalls } from './calls/simulated-calls';
import { CarrierApi } from './http/carrier-api';
import { CarrierMetrics } from './http/metrics';
import { SimulatedMessages } from './messages/simulated-messages';

/** One JSON log line (the platform's apps log JSON too). */
function log(level: 'info' | 'warn' | 'error', msg: string): void {
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), service: 'sandbox-carrier', msg })}\n`);
}

function loadConfig(): SandboxCarrierConfig {
  for (const file of ['apps/sandbox-carrier/.env', '.env']) {
    try {
      process.loadEnvFile(file);
    } catch {
      // No such file: the environment alone.
    }
  }
  try {
    return validateConfig(SandboxCarrierConfig);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`sandbox-carrier: refusing to start, ${err.problems.length} bad setting(s):\n`);
    for (const p of err.problems) process.stderr.write(`  - ${p}\n`);
    process.exit(1);
  }
}

/**
 * The sandbox carrier: a carrier_b account host partners try calls on. It knows only what it was told
 * since it started; calls placed before a restart are unknown to it (404), as a carrier's lost calls are.
 */
function main(): void {
  // Started by npm start or the test harness: go with the launcher, however it went, as every app does (no
  // drain: writing to its broken pipes could block this process for good).
  whenParentGone(() => process.kill(process.pid, 'SIGKILL'));
  const config = loadConfig();
  if (process.argv.includes('--check-config')) {
    process.stdout.write('sandbox-carrier: configuration is valid\n');
    process.exit(0);
  }
  const calls = new SimulatedCalls(config, new OfflineCalleeVoice(), log);
  let stopping = false;
  const metrics = new CarrierMetrics(() => calls.liveCount);
  const messages = new SimulatedMessages(config, log);
  const api = new CarrierApi(config, calls, () => !stopping, metrics, messages);
  const server = createServer((req, res) => void api.handle(req, res));
  server.requestTimeout = 30_000;
  server.listen(config.PORT, config.HOST, () =>
    log('info', `sandbox-carrier listening on ${config.HOST}:${config.PORT}`),
  );

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('info', `${signal} received: ending ${calls.liveCount} live call(s)`);
    setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS).unref();
    void Promise.all([calls.stop(), messages.stop()])
      .then(() => new Promise<void>((resolve) => server.close(() => resolve())))
      .then(() => process.exit(0));
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main();
