import {
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Validate,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { MediaBaseUrlConstraint } from '@vap/media';
import { BaseServiceConfig, DevelopmentValue, IntSetting } from '@vap/runtime';

const httpBaseUrl = /^https?:\/\/[^\s/]+(\/[^\s]*)?$/;
const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

@ValidatorConstraint({ name: 'notInProduction' })
class NotInProductionConstraint implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    return (args.object as CallsConfig).NODE_ENV !== 'production';
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} is for tests and is refused with NODE_ENV=production`;
  }
}

export class CallsConfig extends BaseServiceConfig {
  /** HTTP port: health and metrics. */
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3002;

  /**
   * The gateway's public base URL, from which every URL that points at the gateway derives: carrier
   * callbacks, absolute recording URLs. Required unless CALLBACK_BASE_URL is set; only
   * NODE_ENV=development falls back to http://127.0.0.1:3000 (`npm start` sets it from the gateway it runs).
   */
  @DevelopmentValue('http://127.0.0.1:3000', { refuse: () => false })
  @ValidateIf((c: CallsConfig) => c.PUBLIC_BASE_URL !== undefined || !c.CALLBACK_BASE_URL)
  @Matches(httpBaseUrl, {
    message: "PUBLIC_BASE_URL must be set to the gateway's public http(s) URL, e.g. https://api.example.com",
  })
  PUBLIC_BASE_URL?: string;

  /**
   * Where carriers send callbacks (`{base}/callbacks/{provider}/...`), when it is not PUBLIC_BASE_URL.
   */
  @IsOptional()
  @Matches(httpBaseUrl, { message: 'CALLBACK_BASE_URL must be an http(s) URL' })
  CALLBACK_BASE_URL?: string;

  /** The base of callback URLs handed to carriers. */
  get callbackBaseUrl(): string {
    return withoutTrailingSlash(this.CALLBACK_BASE_URL || this.PUBLIC_BASE_URL || '');
  }

  /** The base of every other URL on the gateway (recordings). */
  get publicBaseUrl(): string {
    return withoutTrailingSlash(this.PUBLIC_BASE_URL || this.CALLBACK_BASE_URL || '');
  }

  /**
   * The voice service's public base URL (http(s) or ws(s)): answered carrier calls are told to open their
   * media stream at `{MEDIA_PUBLIC_URL}/media/{provider}/{callId}?token=...`. Required unless
   * NODE_ENV=development, which falls back to the local voice service (`npm start` sets it).
   */
  @DevelopmentValue('http://127.0.0.1:3005', { refuse: () => false })
  @Validate(MediaBaseUrlConstraint)
  MEDIA_PUBLIC_URL: string = '';

  /** How long a media-stream URL handed to a carrier stays valid (it opens one stream, once). */
  @IntSetting({ min: 1000, max: 600000 })
  MEDIA_STREAM_TOKEN_TTL_MS: number = 60000;

  /**
   * How long a browser session's access token stays valid: a session not connected by then expires
   * (POST /browser-sessions answers it as expires_at).
   */
  @IntSetting({ min: 1000, max: 600000 })
  BROWSER_SESSION_TOKEN_TTL_MS: number = 60000;

  /** Price of one minute of call time, in paise, billed per second (400 = INR 4.00 per minute). */
  @IntSetting({ min: 0 })
  CALL_PRICE_PER_MINUTE_PAISE: number = 400;

  /**
   * Price of one minute of a test run's session (POST /test-runs: the campaigns service's test caller talking to
   * an agent over a browser session), in paise, billed per second like a call (100 = INR 1.00 per minute).
   */
  @IntSetting({ min: 0 })
  TEST_CALL_PRICE_PER_MINUTE_PAISE: number = 100;

  /**
   * For tests only (refused with NODE_ENV=production): the service's clock (the contact policy's windows and
   * caps, the stale-call sweep) reads this instant when the service starts and runs on at real speed from there,
   * so calling windows can be tried across a DST change or a day boundary. Unset: the wall clock.
   */
  @ValidateIf((c: CallsConfig) => c.CONTACT_POLICY_CLOCK_START !== undefined)
  @IsISO8601({ strict: true }, { message: 'CONTACT_POLICY_CLOCK_START must be an ISO 8601 instant' })
  @Validate(NotInProductionConstraint)
  CONTACT_POLICY_CLOCK_START?: string;

  /** OpenAI-compatible chat-completions server for agent replies and extraction; unset = offline engine. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'LLM_BASE_URL must be an http(s) URL' })
  LLM_BASE_URL?: string;

  /** API key of LLM_BASE_URL's server. */
  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  /** Model asked for post-call extraction. */
  @IsString()
  LLM_MODEL: string = 'gpt-4o-mini';

  /** Deadline of one model request. */
  @IntSetting({ min: 100, max: 120000 })
  LLM_TIMEOUT_MS: number = 15000;

  /** How often the post-call worker looks for due jobs. */
  @IntSetting({ min: 10, max: 60000 })
  POST_CALL_POLL_MS: number = 500;

  /** Attempts of post-call extraction, and of post-call analysis, before each is reported failed. */
  @IntSetting({ min: 1, max: 10 })
  EXTRACTION_MAX_ATTEMPTS: number = 3;

  /** How often calls that never got a final carrier status are looked for. */
  @IntSetting({ min: 100, max: 3600000 })
  STALE_CALL_SWEEP_MS: number = 60000;

  /** Slack after a call's max duration before it counts as stale and is failed. */
  @IntSetting({ min: 0, max: 86400 })
  STALE_CALL_GRACE_SECS: number = 300;

  /** How long a call whose agent has no max_call_duration_secs may run before it counts as stale. */
  @IntSetting({ min: 1, max: 86400 })
  STALE_CALL_UNCAPPED_SECS: number = 3600;

  /**
   * First delay before a final carrier callback the carrier's REST API did not confirm is checked again
   * (doubling per attempt, at most 5 minutes between checks).
   */
  @IntSetting({ min: 100, max: 300000 })
  CARRIER_RECONCILE_RETRY_MS: number = 15000;

  /** Checks before a call whose carrier cannot be asked is ended, billed what was seen, and flagged. */
  @IntSetting({ min: 1, max: 50 })
  CARRIER_RECONCILE_MAX_ATTEMPTS: number = 8;

  /**
   * How often each replica looks for partners whose balance no longer covers their calls in progress
   * (those calls are hung up with end_call_reason insufficient_balance).
   */
  @IntSetting({ min: 100, max: 60000 })
  BALANCE_GUARD_INTERVAL_MS: number = 1000;

  /**
   * How often each replica looks for live media streams whose voice replica stopped beating (killed, lost
   * host); their calls are hung up and ended (voice_replica_lost) within the heartbeat's lapse and this.
   */
  @IntSetting({ min: 100, max: 60000 })
  VOICE_REPLICA_CHECK_MS: number = 2000;

  /**
   * How often each replica looks for live calls the carrier has gone quiet on (see
   * CARRIER_FINAL_STATUS_WAIT_SECS and CARRIER_RING_CHECK_SECS) and asks the carrier's REST API about them.
   */
  @IntSetting({ min: 100, max: 60000 })
  CARRIER_SILENCE_CHECK_MS: number = 2000;

  /**
   * How long after a call's media stream ended, or the platform hung it up, the carrier's final status may
   * take before the carrier is asked; a call it no longer knows ends (carrier_call_lost).
   */
  @IntSetting({ min: 1, max: 3600 })
  CARRIER_FINAL_STATUS_WAIT_SECS: number = 10;

  /** How long a placed call may stay initiated or ringing before the carrier is asked whether it still has it. */
  @IntSetting({ min: 1, max: 3600 })
  CARRIER_RING_CHECK_SECS: number = 120;

  /** How long before a call the carrier reported live (or could not be asked about) is asked about again. */
  @IntSetting({ min: 1, max: 3600 })
  CARRIER_CHECK_RETRY_SECS: number = 30;

  /**
   * How often each replica looks for outbound calls admitted but not placed: never handed to the carrier
   * (the start failed after its admission) or handed over with the carrier's id unsaved (see
   * PLACEMENT_GRACE_SECS).
   */
  @IntSetting({ min: 100, max: 60000 })
  PLACEMENT_RECOVERY_MS: number = 2000;

  /**
   * How long after its admission a call may wait to be handed to the carrier (its pre-call hook runs
   * meanwhile): the start dials it within this or never, and a call still undialled after it ends failed
   * (placement_interrupted). A call handed over without its carrier id saved is looked up at the carrier
   * this long plus CARRIER_HTTP_TIMEOUT_MS after the request began.
   */
  @IntSetting({ min: 5, max: 600 })
  PLACEMENT_GRACE_SECS: number = 10;

  /**
   * How long the carrier is asked for a call handed to it whose carrier id was not saved (while it cannot
   * be asked, or names more than one candidate) before the call ends failed (placement_interrupted).
   */
  @IntSetting({ min: 10, max: 86400 })
  PLACEMENT_LOOKUP_MAX_SECS: number = 300;

  /**
   * Countries (ISO 3166-1 alpha-2, comma-separated) every account may text until it sets allowed_countries
   * itself (PATCH /messages/policy), besides the countries of its own numbers. Empty: its own countries only.
   */
  @Matches(/^([A-Z]{2}(,[A-Z]{2})*)?$/, {
    message: 'SMS_DEFAULT_ALLOWED_COUNTRIES must be ISO country codes separated by commas, e.g. IN,US',
  })
  SMS_DEFAULT_ALLOWED_COUNTRIES: string = 'IN';

  /**
   * The most messages one account sends in any 24 hours: its max_per_day until it sets a lower one, and the
   * highest it may set.
   */
  @IntSetting({ min: 1, max: 1000000 })
  SMS_MAX_PER_DAY: number = 1000;

  /** SMS_DEFAULT_ALLOWED_COUNTRIES as a list. */
  get smsDefaultAllowedCountries(): string[] {
    return this.SMS_DEFAULT_ALLOWED_COUNTRIES ? this.SMS_DEFAULT_ALLOWED_COUNTRIES.split(',') : [];
  }
}
