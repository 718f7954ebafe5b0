import { Transform } from 'class-transformer';
import {
  IsNumber,
  Max,
  Min,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { BaseServiceConfig, BoolSetting, DevelopmentValue, IntSetting } from '@vap/runtime';
import { DEV_SECRETS_KEY, isDevelopmentSecret, SecretsKeyConstraint } from '@vap/secrets';
import { DurationConstraint, DurationListConstraint } from './duration.constraints';

/** A lease must outlive one send, so that a replica that stops renewing never overlaps a send in flight. */
@ValidatorConstraint({ name: 'leaseOutlivesSend' })
class LeaseOutlivesSend implements ValidatorConstraintInterface {
  validate(lease: unknown, args: ValidationArguments): boolean {
    const timeout = (args.object as { WEBHOOK_TIMEOUT_MS?: number }).WEBHOOK_TIMEOUT_MS ?? 0;
    return typeof lease === 'number' && lease > timeout;
  }

  defaultMessage(args: ValidationArguments): string {
    const timeout = (args.object as { WEBHOOK_TIMEOUT_MS?: number }).WEBHOOK_TIMEOUT_MS;
    return `WEBHOOK_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS (${timeout})`;
  }
}

/** Settings of the webhooks service, validated at boot. Durations read like `10s`, `5m`, `2h`, `5d`, `250ms`. */
export class WebhooksConfig extends BaseServiceConfig {
  /** HTTP port: health and metrics. */
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3004;

  /** AES-256-GCM key of the endpoints' signing secrets at rest (a fixed key in development only). */
  @DevelopmentValue(DEV_SECRETS_KEY, { refuse: isDevelopmentSecret })
  @Validate(SecretsKeyConstraint)
  SECRETS_KEY: string = '';

  /** Let deliveries reach private, loopback and link-local addresses (development and tests only). */
  @BoolSetting()
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /**
   * Delays before each retry after a failed attempt; the first attempt is immediate. Default (after Svix):
   * 5s, 5m, 30m, 2h, 5h, 10h, 10h — eight attempts over about 28 hours — each delay with ±WEBHOOK_RETRY_JITTER.
   */
  @Validate(DurationListConstraint)
  WEBHOOK_RETRY_SCHEDULE: string = '5s,5m,30m,2h,5h,10h,10h';

  /** Relative jitter on every retry delay (0.2 = ±20%), so retries of many deliveries do not arrive in step. */
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsNumber()
  @Min(0)
  @Max(0.5)
  WEBHOOK_RETRY_JITTER: number = 0.2;

  /** A Retry-After from the receiver (429/503) is honoured up to this long; longer values are cut to it. */
  @Validate(DurationConstraint)
  WEBHOOK_RETRY_AFTER_MAX: string = '1h';

  /** Deadline of one delivery request: the contract's 10 seconds. */
  @IntSetting({ min: 100, max: 60000 })
  WEBHOOK_TIMEOUT_MS: number = 10000;

  /** An endpoint with no successful delivery for this long while attempts keep failing is disabled. */
  @Validate(DurationConstraint)
  WEBHOOK_AUTO_DISABLE_AFTER: string = '5d';

  /** After a rotation the previous secret keeps signing (X-Webhook-Signature-Previous) for this long. */
  @Validate(DurationConstraint)
  WEBHOOK_SECRET_GRACE: string = '24h';

  /**
   * Deliveries this replica sends at once; a slow endpoint holds one slot, never the others. A send mostly
   * waits for the receiver, so a slot is cheap; settlements share statements, so the pool need not grow.
   */
  @IntSetting({ min: 0, max: 1000 })
  WEBHOOK_WORKER_CONCURRENCY: number = 256;

  /** How often idle workers look for due retries and expired leases (new deliveries wake them at once). */
  @IntSetting({ min: 20, max: 60000 })
  WEBHOOK_POLL_MS: number = 500;

  /**
   * A call's status event whose previous status has not reached this endpoint's queue yet waits this long
   * for it before it is sent anyway (events are fanned out concurrently, so one may overtake another by
   * moments; the previous one may also never come, for an endpoint created mid-call).
   */
  @IntSetting({ min: 0, max: 60000 })
  WEBHOOK_ORDER_WAIT_MS: number = 500;

  /** Postgres connections of this replica. */
  @IntSetting({ min: 2, max: 200 })
  WEBHOOK_DB_POOL_SIZE: number = 10;

  /**
   * How long a claimed delivery is this replica's; renewed every third of it while the send runs, so only
   * a replica that died mid-send loses it, after this. Longer than WEBHOOK_TIMEOUT_MS.
   */
  @IntSetting({ min: 1000, max: 600000 })
  @Validate(LeaseOutlivesSend)
  WEBHOOK_LEASE_MS: number = 30000;
}
