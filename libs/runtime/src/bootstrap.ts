import { existsSync } from 'node:fs';
import { DynamicModule, INestApplication, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { DataSourceOptions } from 'typeorm';
import { whenParentGone } from '@vap/lifecycle';
import { NatsConnectionService, NatsRpcServer } from '@vap/messaging';
import { ensureDatabaseExists, runMigrations } from '@vap/persistence';
import { BaseServiceConfig } from './config/base.config';
import { withServiceConfigs } from './config/config.module';
import { ConfigClass, ConfigError, validateConfigs, ValidatedConfigs } from './config/validate-config';
import { requestIdMiddleware } from './logging/request-id.middleware';
import { httpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { startTracing, tracingMiddleware } from './tracing/tracing';

export interface ServiceDefinition<C extends BaseServiceConfig> {
  name: string;
  /** The settings bootstrap itself reads (database, NATS, port, ...), extended by the app. */
  configClass: ConfigClass<C>;
  /**
   * The app's other config classes. Every one is validated with configClass before anything runs, and each
   * validated instance (configClass's too) is provided for injection under its class.
   */
  settings?: ConfigClass[];
  /** The app module, built from the validated configs. */
  module: (config: C, configs: ValidatedConfigs) => DynamicModule;
  /** TypeORM options of the service's schema, for migrations before start; absent for a service without one. */
  dataSource?: (config: C) => DataSourceOptions;
  port: (config: C) => number;
  /**
   * How long a SIGTERM may take before the process is forced out (default SHUTDOWN_TIMEOUT_MS): longer for
   * a service that lets live work finish first (the media plane's drain deadline).
   */
  shutdownTimeoutMs?: (config: C) => number;
  /** HTTP setup specific to the app (the gateway's body parsers, filters, OpenAPI). */
  configure?: (app: NestExpressApplication, config: C) => void | Promise<void>;
}

/** Validates every config class or exits with one line per problem; never a stack trace for a bad setting. */
function loadConfigsOrExit(
  name: string,
  classes: ConfigClass[],
  env: NodeJS.ProcessEnv = process.env,
): ValidatedConfigs {
  try {
    return validateConfigs(classes, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${name}: refusing to start, ${err.problems.length} bad setting(s):\n`);
    for (const p of err.problems) process.stderr.write(`  - ${p}\n`);
    return process.exit(1);
  }
}

/** A developer's .env (beside the app, then at the root) fills what the environment leaves unset. */
function loadDotEnvFiles(name: string): void {
  for (const file of [`apps/${name}/.env`, '.env']) {
    if (existsSync(file)) process.loadEnvFile(file);
  }
}

async function migrate<C extends BaseServiceConfig>(def: ServiceDefinition<C>, config: C): Promise<void> {
  // A service without a schema has nothing to migrate and never touches Postgres.
  if (!def.dataSource) return;
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
  // Started by `npm start` or the test harness, and that process is gone however it went: nobody reads our
  // output, and the platform around us is going too, so stop at once rather than live on taking the next
  // start's work. SIGKILL, not a drain or exit: both log, and writing to the broken pipes can block for
  // good (development's log transport does), keeping this process alive. Work in flight is redelivered.
  whenParentGone(() => process.kill(process.pid, 'SIGKILL'));
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
  loadDotEnvFiles(def.name);
  const configs = loadConfigsOrExit(def.name, [
    def.configClass,
    ...(migrateOnly ? [] : (def.settings ?? [])),
  ]);
  const config = configs.get(def.configClass);
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
  const app = await NestFactory.create<NestExpressApplication>(
    withServiceConfigs(def.module(config, configs), configs),
    {
      bufferLogs: true,
      bodyParser: false,
    },
  );
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
  if (config.NODE_ENV === 'production' && config.NATS_PASSWORD === undefined) {
    logger.warn(
      'NATS_PASSWORD is not set: connected to NATS without credentials, as a user with every permission',
    );
  }
  handleShutdown(app, def.name, def.shutdownTimeoutMs?.(config) ?? config.SHUTDOWN_TIMEOUT_MS, stopTracing);
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
