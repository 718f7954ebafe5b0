import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { BaseServiceConfig, toInt } from '@vap/runtime';

export class CallsConfig extends BaseServiceConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3002;

  /**
   * Public base URL of the gateway, where carriers send callbacks (`{base}/callbacks/{provider}/...`).
   * The sandbox carrier posts its callbacks there too, so it must reach the gateway.
   */
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'CALLBACK_BASE_URL must be an http(s) URL' })
  CALLBACK_BASE_URL: string = 'http://127.0.0.1:3000';

  /** Price of one minute of call time, in paise, billed per second (400 = INR 4.00 per minute). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  CALL_PRICE_PER_MINUTE_PAISE: number = 400;

  /** Real time the sandbox carrier waits between two steps of a simulated call. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(60000)
  SANDBOX_STEP_MS: number = 250;

  /** HMAC key of the sandbox carrier's callbacks; derived from SECRETS_KEY when unset (outside production). */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SANDBOX_CALLBACK_SECRET must be at least 32 characters' })
  SANDBOX_CALLBACK_SECRET?: string;

  /** OpenAI-compatible chat-completions server for agent replies and extraction; unset = offline engine. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'LLM_BASE_URL must be an http(s) URL' })
  LLM_BASE_URL?: string;

  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  @IsString()
  LLM_MODEL: string = 'gpt-4o-mini';

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120000)
  LLM_TIMEOUT_MS: number = 15000;

  /** How often the post-call worker looks for due jobs. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60000)
  POST_CALL_POLL_MS: number = 500;

  /** Attempts of post-call extraction before it is reported failed. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10)
  EXTRACTION_MAX_ATTEMPTS: number = 3;

  /** How often calls that never got a final carrier status are looked for. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3600000)
  STALE_CALL_SWEEP_MS: number = 60000;

  /** Slack after a call's max duration before it counts as stale and is failed. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86400)
  STALE_CALL_GRACE_SECS: number = 300;

  /**
   * How often each replica looks for partners whose balance no longer covers their calls in progress
   * (those calls are hung up with end_call_reason insufficient_balance).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60000)
  BALANCE_GUARD_INTERVAL_MS: number = 1000;

  /** How often each replica looks for live calls whose replica is gone (they are ended at once). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60000)
  CALL_OWNER_CHECK_MS: number = 2000;
}
