import {
  IsEmpty,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MinLength,
  Validate,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { addressRange } from '@vap/egress';
import { MediaBaseUrlConstraint } from '@vap/media';
import { BaseServiceConfig, BoolSetting, DevelopmentValue, IntSetting } from '@vap/runtime';
import {
  DEV_SECRETS_KEY,
  isDevelopmentSecret,
  parseSecretsKey,
  SecretsKeyConstraint,
  streamTokenKeyOf,
} from '@vap/secrets';

const httpUrl = /^https?:\/\/[^\s]+$/;

/**
 * A provider base URL naming a private, loopback or link-local address literal (or localhost) is refused
 * unless private networks are allowed: the same rule as the platform's other outbound requests (@vap/egress).
 * Names are resolved by the providers at connect time; this catches the configuration mistake at boot.
 */
@ValidatorConstraint({ name: 'publicProviderUrl' })
class PublicProviderUrlConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    if (typeof value !== 'string') return true;
    if ((args.object as VoiceConfig).providersMayUsePrivateNetworks) return true;
    let host: string;
    try {
      host = new URL(value).hostname;
    } catch {
      return true; // the URL pattern reports it
    }
    if (host === 'localhost' || host.endsWith('.localhost')) return false;
    const range = addressRange(host);
    return range === null || range === 'unicast';
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} points at a private or loopback address; set PROVIDER_ALLOW_PRIVATE_NETWORKS=true to allow it`;
  }
}

/** Settings of the voice service (the media plane), validated at boot. */
export class VoiceConfig extends BaseServiceConfig {
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3005;

  /**
   * The key media-stream tokens are checked with: the one the calls service signs them with, derived from
   * its SECRETS_KEY (`SECRETS_KEY=... npm run admin -- derive-stream-token-key`). Voice faces the internet,
   * so it holds this key only, which can mint stream tokens and nothing else. In development: the key of
   * the development SECRETS_KEY.
   */
  @DevelopmentValue(streamTokenKeyOf(DEV_SECRETS_KEY), { refuse: isDevelopmentSecret })
  @Validate(SecretsKeyConstraint)
  STREAM_TOKEN_KEY: string = '';

  /** Refused outside development: the master key (stored credentials, webhook secrets) stays off voice. */
  @ValidateIf((c: VoiceConfig) => c.NODE_ENV !== 'development')
  @IsEmpty({
    message:
      'voice does not take the master key; give it STREAM_TOKEN_KEY (SECRETS_KEY=... npm run admin -- derive-stream-token-key)',
  })
  SECRETS_KEY?: string;

  /**
   * This service's public base URL as carriers reach it (`wss://` is derived from `https://`); the calls
   * service puts stream URLs on it and carriers sign their upgrades over it. Required outside development,
   * where it defaults to http://127.0.0.1:<PORT> (`npm start` sets it to the voice app it runs).
   */
  @ValidateIf((c: VoiceConfig) => c.MEDIA_PUBLIC_URL !== undefined || c.NODE_ENV !== 'development')
  @Validate(MediaBaseUrlConstraint)
  MEDIA_PUBLIC_URL?: string;

  /**
   * Speed of the media clock: outbound frames are paced every 20 ms divided by this. 1 in production; tests
   * and benchmarks run calls faster than real time with the same pacing code.
   */
  // Whole, as the calls service's (the sandbox phone must run on the same clock).
  @IntSetting({ min: 1, max: 100 })
  MEDIA_TIME_SCALE: number = 1;

  /**
   * On SIGTERM a replica takes no new streams and lets live calls run this long, then ends the rest
   * (`replica_draining`) and exits once they have reported.
   */
  @IntSetting({ min: 0, max: 3600000 })
  DRAIN_DEADLINE_MS: number = 30000;

  /** Speech to text: offline (deterministic, no network), an OpenAI-compatible server, or Deepgram-compatible. */
  @IsIn(['offline', 'openai', 'deepgram'], { message: 'STT_PROVIDER must be offline, openai or deepgram' })
  STT_PROVIDER: 'offline' | 'openai' | 'deepgram' = 'offline';

  @ValidateIf((c: VoiceConfig) => c.STT_PROVIDER !== 'offline' || c.STT_BASE_URL !== undefined)
  @Matches(httpUrl, { message: 'STT_BASE_URL must be an http(s) URL (required unless STT_PROVIDER=offline)' })
  @Validate(PublicProviderUrlConstraint)
  STT_BASE_URL?: string;

  @IsOptional()
  @IsString()
  STT_API_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  STT_MODEL?: string;

  /** Text to speech: offline (deterministic, no network) or an OpenAI-compatible server. */
  @IsIn(['offline', 'openai'], { message: 'TTS_PROVIDER must be offline or openai' })
  TTS_PROVIDER: 'offline' | 'openai' = 'offline';

  @ValidateIf((c: VoiceConfig) => c.TTS_PROVIDER !== 'offline' || c.TTS_BASE_URL !== undefined)
  @Matches(httpUrl, { message: 'TTS_BASE_URL must be an http(s) URL (required unless TTS_PROVIDER=offline)' })
  @Validate(PublicProviderUrlConstraint)
  TTS_BASE_URL?: string;

  @IsOptional()
  @IsString()
  TTS_API_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  TTS_MODEL?: string;

  /** OpenAI-compatible chat completions for the agent's turns (the calls service's names); unset = offline. */
  @IsOptional()
  @Matches(httpUrl, { message: 'LLM_BASE_URL must be an http(s) URL' })
  @Validate(PublicProviderUrlConstraint)
  LLM_BASE_URL?: string;

  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  @IsString()
  LLM_MODEL: string = 'gpt-4o-mini';

  @IntSetting({ min: 100, max: 120000 })
  LLM_TIMEOUT_MS: number = 15000;

  /** Deadline of one speech-provider step (first byte of synthesis, a transcription); then the call apologises and ends. */
  @IntSetting({ min: 100, max: 120000 })
  PROVIDER_TIMEOUT_MS: number = 8000;

  /** Let provider base URLs name private or loopback addresses (in-cluster or local providers, tests). */
  @BoolSetting()
  PROVIDER_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** The platform-wide development/test switch counts too (`npm start` and the e2e harness set it). */
  @BoolSetting()
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean = false;

  get providersMayUsePrivateNetworks(): boolean {
    return this.PROVIDER_ALLOW_PRIVATE_NETWORKS || this.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  }

  /** The public base carriers were given, without a trailing slash. */
  get mediaPublicUrl(): string {
    return (this.MEDIA_PUBLIC_URL ?? `http://127.0.0.1:${this.PORT}`).replace(/\/+$/, '');
  }

  get streamTokenKey(): Buffer {
    return parseSecretsKey(this.STREAM_TOKEN_KEY, 'STREAM_TOKEN_KEY');
  }
}
