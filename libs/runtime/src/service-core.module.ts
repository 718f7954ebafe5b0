import { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSourceOptions } from 'typeorm';
import { MessagingModule } from '@vap/messaging';
import { BaseServiceConfig } from './config/base.config';
import { loggingModule } from './logging/logger.module';
import { HealthModule } from './health/health.module';
import { HealthOptions } from './health/health.options';
import { MetricsModule } from './metrics/metrics.module';
import { Clock } from './clock/clock';
import { ClockModule } from './clock/clock.module';
import { SystemClock } from './clock/system-clock';

/**
 * What every service imports: logs, its schema, NATS, health routes and /metrics. A service without a
 * schema (dataSource null) gets no TypeORM, NATS for commands only, and readiness without Postgres. Every
 * module reads time from the one Clock given here (the wall clock unless the service passes one).
 */
export function serviceCoreModules(
  name: string,
  config: BaseServiceConfig,
  dataSource: DataSourceOptions | null,
  health: HealthOptions = {},
  clock: Clock = new SystemClock(),
): DynamicModule[] {
  const persistence = dataSource !== null;
  return [
    loggingModule(name, config.LOG_LEVEL, config.NODE_ENV),
    ClockModule.forRoot(clock),
    ...(persistence ? [TypeOrmModule.forRoot({ ...dataSource, retryAttempts: 3, retryDelay: 1000 })] : []),
    MessagingModule.forRoot({
      persistence,
      serviceName: name,
      url: config.NATS_URL,
      user: config.NATS_USER,
      password: config.NATS_PASSWORD,
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      requestTimeoutMs: config.RPC_TIMEOUT_MS,
      eventRetentionMs: config.EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    }),
    HealthModule.forRoot({ database: persistence, ...health }),
    MetricsModule.forService(name),
  ];
}
