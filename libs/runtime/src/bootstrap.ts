import { existsSync } from 'node:fs';
import { INestApplication, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { DataSourceOptions } from 'typeorm';
import { NatsConnectionService, NatsRpcServer } from '@vap/messaging';
import { ensureDatabaseExists, runMigrations } from '@vap/persistence';
import { BaseServiceConfig } from './config/base.config';
import { ConfigError, validateConfig } from './config/validate-config';
import { requestIdMiddleware } from './logging/request-id.middleware';
import { httpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { startTracing, tracingMiddleware } from './tracing/tracing';

export interface ServiceDefinition<C extends BaseServiceConfig> {
  name: string;
  configClass: new () => C;
  /** The app's other config classes (its modules read them); validated with configClass, before anything runs. */
  settings?: (new () => object)[];
  /** The app module for a validated config. */
  module: (config: C) => unknown;
  /** TypeORM options of the service's schema, for migrations before start. */
  dataSource: (config: C) => DataSourceOptions;
  port: (config: C) => number;
  /** HTTP setup specific to the app (the gateway's body parsers, filters, OpenAPI). */
  configure?: (app: NestExpressApplication, config: C) => void | Promise<void>;
}

/** Validates config or exits with one line per problem; never a stack trace for a bad setting. */
export function loadConfigOrExit<C extends object>(name: string, cls: new () => C): C {
  return loadSettingsOrExit(name, cls);
}

/**
 * Validates an app's main config class and its other ones together, so that one run lists every bad
 * setting (each once), or exits; returns the main config.
 */
export function loadSettingsOrExit<C extends object>(
  name: string,
  main: new () => C,
  others: (new () => object)[] = [],
): C {
  // A developer's .env (beside the app, then at the root) fills what the environment leaves unset.
  for (const file of [`apps/${name}/.env`, '.env']) {
    if (existsSync(file)) process.loadEnvFile(file);
  }
  const problems: string[] = [];
  let config: C | undefined;
  for (const cls of [main, ...others]) {
    try {
      const validated = validateConfig(cls);
      if (cls === main) config = validated as C;
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems.filter((p) => !problems.includes(p)));
    }
  }
  if (problems.length || !config) {
    process.stderr.write(`${name}: refusing to start, ${problems.length} bad setting(s):\n`);
    for (const p of problems) process.stderr.write(`  - ${p}\n`);
    process.exit(1);
  }
  return config;
}

async function migrate<C extends BaseServiceConfig>(def: ServiceDefinition<C>, config: C): Promise<void> {
  if (config.NODE_ENV !== 'production') await ensureDatabaseExists(config.DATABASE_URL);
  const ran = await runMigrations(def.dataSource(config));
  if (ran.length) new NestLogger(def.name).log(`migrations applied: ${ran.join(', ')}`);
}

/**
 * Starts one service: config check, migrations, HTTP (health, metrics, and the API for the gateway),
 * the NATS command server, and a shutdown that drains work within SHUTDOWN_TIMEOUT_MS.
 */
export async function bootstrapService<C extends BaseServiceConfig>(
  def: ServiceDefinition<C>,
): Promise<INestApplication> {
  try {
    return await start(def);
  } catch (err) {
    // A dependency that is down at boot is a clear one-line failure, not an unhandled rejection.
    process.stderr.write(
      `${def.name}: failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  }
}

async function start<C extends BaseServiceConfig>(def: ServiceDefinition<C>): Promise<INestApplication> {
  // A migration run needs only the main settings (a migrations job holds no more secrets than that).
  const migrateOnly = process.argv.includes('--migrate-only');
  const config = loadSettingsOrExit(def.name, def.configClass, migrateOnly ? [] : def.settings);
  // For deployment checks: validate the environment exactly as this run would, then stop.
  if (process.argv.includes('--check-config')) {
    process.stdout.write(`${def.name}: configuration is valid\n`);
    process.exit(0);
  }
  if (migrateOnly) {
    await migrate(def, config);
    process.exit(0);
  }
  if (config.MIGRATIONS_RUN) await migrate(def, config);

  const stopTracing = startTracing(def.name, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const app = await NestFactory.create<NestExpressApplication>(def.module(config) as never, {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.use(requestIdMiddleware);
  app.use(httpMetricsMiddleware);
  if (stopTracing) app.use(tracingMiddleware);
  app.disable('x-powered-by');
  await def.configure?.(app, config);
  app.connectMicroservice({ strategy: new NatsRpcServer(app.get(NatsConnectionService)) });
  await app.init();
  await app.startAllMicroservices();
  await app.listen(def.port(config), config.HOST);
  const logger = new NestLogger(def.name);
  logger.log(`${def.name} listening on ${await app.getUrl()}`);
  handleShutdown(app, def.name, config.SHUTDOWN_TIMEOUT_MS, stopTracing);
  return app;
}

function handleShutdown(
  app: INestApplication,
  name: string,
  deadlineMs: number,
  stopTracing?: () => Promise<void>,
): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    const logger = new NestLogger(name);
    logger.log(`${signal} received: draining`);
    const force = setTimeout(() => {
      logger.error(`shutdown exceeded ${deadlineMs} ms; exiting`);
      process.exit(1);
    }, deadlineMs);
    force.unref();
    app
      .close()
      // Spans still buffered are flushed last, so the shutdown itself is traced too.
      .then(() => stopTracing?.().catch(() => undefined))
      .then(() => process.exit(0))
      .catch((err: Error) => {
        logger.error(`shutdown failed: ${err.message}`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
