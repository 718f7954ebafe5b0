import { IsOptional, Matches, Validate } from 'class-validator';
import { DevelopmentValue, IntSetting } from '@vap/runtime';
import { DEV_SECRETS_KEY, isDevelopmentSecret, SecretsKeyConstraint } from '@vap/secrets';

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

  /** Deadline of one carrier REST request (place a call, detach a number). */
  @IntSetting({ min: 100, max: 60000 })
  CARRIER_HTTP_TIMEOUT_MS: number = 10000;

  /** Deadline of one request to a reseller-link API. */
  @IntSetting({ min: 100, max: 60000 })
  RESELLER_LINK_TIMEOUT_MS: number = 10000;
}
