import { IsOptional, Matches, MinLength, Validate } from 'class-validator';
import { DevelopmentValue, IntSetting } from '@vap/runtime';
import {
  DEV_SANDBOX_AUTH_TOKEN,
  DEV_SECRETS_KEY,
  isDevelopmentSecret,
  SecretsKeyConstraint,
} from '@vap/secrets';

const httpUrl = /^https?:\/\/[^\s/]+(\/[^\s]*)?$/;

/**
 * Telephony settings of the calls service, validated at boot with its other settings:
 * the key that encrypts carrier credentials at rest and the carriers' REST endpoints.
 */
export class TelephonyConfig {
  /** AES-256-GCM key of stored carrier credentials and policy secrets (a fixed key in development only). */
  @DevelopmentValue(DEV_SECRETS_KEY, { refuse: isDevelopmentSecret })
  @Validate(SecretsKeyConstraint)
  SECRETS_KEY: string = '';

  /** REST base of carrier_a (shaped like its public API); unset: calls on carrier_a fail with 502. */
  @IsOptional()
  @Matches(httpUrl, { message: 'CARRIER_A_BASE_URL must be an http(s) URL' })
  CARRIER_A_BASE_URL?: string;

  /** REST base of carrier_b (shaped like its public API); unset: calls on carrier_b fail with 502. */
  @IsOptional()
  @Matches(httpUrl, { message: 'CARRIER_B_BASE_URL must be an http(s) URL' })
  CARRIER_B_BASE_URL?: string;

  /**
   * The partner's default Sandbox connection is a carrier_b account at the platform's own carrier simulator:
   * its REST base, and the account the platform holds there (never shown to partners). Unset base: calls
   * on it fail with 502.
   */
  @DevelopmentValue('http://127.0.0.1:3006', { refuse: () => false })
  @IsOptional()
  @Matches(httpUrl, { message: 'SANDBOX_CARRIER_URL must be an http(s) URL' })
  SANDBOX_CARRIER_URL?: string;

  /** The account SID the platform holds at the sandbox carrier (the Sandbox connections' carrier_b account). */
  @Matches(/^AC[A-Za-z0-9]{1,64}$/, {
    message: 'SANDBOX_ACCOUNT_SID must be AC followed by letters or digits',
  })
  SANDBOX_ACCOUNT_SID: string = 'ACsandbox';

  /**
   * The auth token of that account: signs requests to the sandbox carrier and verifies its callbacks; the
   * sandbox carrier app is given the same token.
   */
  @DevelopmentValue(DEV_SANDBOX_AUTH_TOKEN, { refuse: isDevelopmentSecret })
  @IsOptional()
  @MinLength(32, { message: 'SANDBOX_AUTH_TOKEN must be at least 32 characters' })
  SANDBOX_AUTH_TOKEN?: string;

  /** Deadline of one carrier REST request (place a call, detach a number). */
  @IntSetting({ min: 100, max: 60000 })
  CARRIER_HTTP_TIMEOUT_MS: number = 10000;

  /** Deadline of one request to a reseller-link API. */
  @IntSetting({ min: 100, max: 60000 })
  RESELLER_LINK_TIMEOUT_MS: number = 10000;
}
