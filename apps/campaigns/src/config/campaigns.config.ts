import { Transform } from 'class-transformer';
import {
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { BaseServiceConfig, IntSetting } from '@vap/runtime';

const toNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' ? Number(value) : value;

/** A claim must outlive its start command, or the reconciler could release a contact being dialled. */
@ValidatorConstraint({ name: 'leaseOutlivesStart' })
class LeaseOutlivesStart implements ValidatorConstraintInterface {
  validate(lease: unknown, args: ValidationArguments): boolean {
    const timeout =
      (args.object as { CAMPAIGNS_START_CALL_TIMEOUT_MS?: number }).CAMPAIGNS_START_CALL_TIMEOUT_MS ?? 0;
    return typeof lease === 'number' && lease > timeout;
  }

  defaultMessage(): string {
    return 'CAMPAIGNS_CLAIM_LEASE_MS must be longer than CAMPAIGNS_START_CALL_TIMEOUT_MS';
  }
}

export class CampaignsConfig extends BaseServiceConfig {
  /** HTTP port: health and metrics. */
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3003;

  /**
   * The calls service's price of one minute (its CALL_PRICE_PER_MINUTE_PAISE): a campaign starts only
   * with a balance for one 30-second call at this price. Deploy both services with the same value.
   */
  @IntSetting({ min: 0 })
  CALL_PRICE_PER_MINUTE_PAISE: number = 400;

  /**
   * How much faster than real time campaign minutes pass (retry delays, cooldowns): 1 in production;
   * tests set e.g. 120 so that one campaign minute lasts half a second.
   */
  @Transform(toNumber)
  @IsNumber({}, { message: 'CAMPAIGNS_TIME_SCALE must be a number' })
  @Min(1)
  @Max(100000)
  CAMPAIGNS_TIME_SCALE: number = 1;

  /** How often each replica looks for due retries and stale claims; slot refills do not wait for it. */
  @IntSetting({ min: 20, max: 60000 })
  CAMPAIGNS_DISPATCH_INTERVAL_MS: number = 1000;

  /**
   * How long a claimed attempt may stay without a call id before it is reconciled with the calls
   * service (the call is looked up by its client_reference_id; without one the contact is released).
   * Longer than the start command's timeout, so that a slow start is never mistaken for a lost one.
   */
  @IntSetting({ min: 1000, max: 600000 })
  @Validate(LeaseOutlivesStart)
  CAMPAIGNS_CLAIM_LEASE_MS: number = 30000;

  /** Deadline of one start-call command. */
  @IntSetting({ min: 100, max: 60000 })
  CAMPAIGNS_START_CALL_TIMEOUT_MS: number = 10000;

  /**
   * Speed of the test runner's media clock: the test caller's audio frames are paced every 20 ms divided by this.
   * Deploy with the voice service's MEDIA_TIME_SCALE (1 in production; tests run calls faster than real time).
   */
  @IntSetting({ min: 1, max: 100 })
  MEDIA_TIME_SCALE: number = 1;

  /**
   * OpenAI-compatible chat-completions server that plays simulated test callers and judges test calls; unset =
   * the offline engine (simulated callers say their scenario's lines, the judge scores by the rubric's words).
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'LLM_BASE_URL must be an http(s) URL' })
  LLM_BASE_URL?: string;

  /** API key of LLM_BASE_URL's server. */
  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  /** Model asked to play simulated callers and to judge test calls. */
  @IsString()
  LLM_MODEL: string = 'gpt-4o-mini';

  /** Deadline of one model request. */
  @IntSetting({ min: 100, max: 120000 })
  LLM_TIMEOUT_MS: number = 15000;

  /** Test attempts this replica plays at once (each a live browser session). */
  @IntSetting({ min: 1, max: 50 })
  TEST_RUN_CONCURRENCY: number = 4;

  /** Test attempts one account plays at once, across replicas (each also takes a slot of its call concurrency). */
  @IntSetting({ min: 1, max: 10 })
  TEST_RUN_ACCOUNT_CONCURRENCY: number = 2;

  /** Longest one test attempt may talk (wall time), from connecting to the session's end. */
  @IntSetting({ min: 5000, max: 900000 })
  TEST_ATTEMPT_TIMEOUT_MS: number = 180000;

  /** How often the test runner looks for due attempts (a new run wakes it at once in the replica that took it). */
  @IntSetting({ min: 20, max: 60000 })
  TEST_RUN_POLL_MS: number = 1000;
}
