import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { isDevelopmentSecret } from '@vap/secrets';
import { DevelopmentValue } from './development-values';
import { BoolSetting, IntSetting } from './settings';

/** Settings every service reads. Each app extends it with its own and validates at boot. */
export class BaseServiceConfig {
  /**
   * Unset means production. Only an explicit `development` turns on development conveniences (default
   * secrets, database auto-create); `test` follows production's rules except that a missing database is
   * created, as the test harness wants.
   */
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'production';

  /** Postgres; each app uses its own schema in this database. */
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/voice_agent_platform';

  /** NATS with JetStream. */
  @Matches(/^(nats|tls|wss?):\/\//, { message: 'NATS_URL must be a nats:// URL' })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  /** Prefix of every subject and of the stream name (tests use one per run). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]*$/, { message: 'NATS_SUBJECT_PREFIX may hold letters, digits, _ and - only' })
  NATS_SUBJECT_PREFIX: string = '';

  /**
   * The service's NATS user (default: the service's name) and password. Its permissions allow only the
   * service's own subjects, the commands it sends and the events it records (natsPermissions, @vap/messaging).
   * No password: no credentials (a server without authorization, as in development).
   * @default the service's name
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'NATS_USER may hold letters, digits, _ and - only' })
  NATS_USER?: string;

  /**
   * The service's NATS password; unset: no credentials (a warning in production). It starts with a letter: the
   * NATS server reads it from its environment (NATS_<SERVICE>_PASSWORD), where a leading digit reads as a number.
   */
  @DevelopmentValue(undefined, { refuse: isDevelopmentSecret })
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9_-]{15,}$/, {
    message:
      'NATS_PASSWORD must be 16+ letters, digits, _ or -, starting with a letter (e.g. n$(openssl rand -hex 24))',
  })
  NATS_PASSWORD?: string;

  /** How long a command waits for its reply before failing (a 502 at the gateway). */
  @IntSetting({ min: 100, max: 60000 })
  RPC_TIMEOUT_MS: number = 5000;

  /** Deadline for draining on SIGTERM. */
  @IntSetting({ min: 1000, max: 300000 })
  SHUTDOWN_TIMEOUT_MS: number = 15000;

  /**
   * How long the event stream keeps events (JetStream max age), and so how long a stopped consumer can
   * catch up; set on the stream at every start, so the same value on every service.
   */
  @IntSetting({ min: 1, max: 3650 })
  EVENT_RETENTION_DAYS: number = 7;

  /** pino log level. */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** Run this service's migrations before it starts (false where a migrations job runs them). */
  @BoolSetting()
  MIGRATIONS_RUN: boolean = true;

  /** Bind address of the HTTP server. */
  @IsString()
  HOST: string = '0.0.0.0';

  /** OTLP/HTTP collector base URL (e.g. http://otel-collector:4318); tracing is off when unset. */
  @IsOptional()
  @Matches(/^https?:\/\//, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}
