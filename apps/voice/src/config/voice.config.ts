import {
  IsEmpty,
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
import { LONGEST_CALL_SECS, STT_PROVIDERS, TTS_PROVIDERS } from '@vap/messages';
import { isPublicHostName } from '@vap/egress';
import { MediaBaseUrlConstraint } from '@vap/media';
import { BaseServiceConfig, BoolSetting, DevelopmentValue, IntSetting } from '@vap/runtime';
import {
  DEV_SECRETS_KEY,
  isDevelopmentSecret,
  parseSecretsKey,
  SecretsKeyConstraint,
  streamTokenKeyOf,
} from '@vap/secrets';
import { isNetworkSpeechProvider, providerListProblem, providerNames } from '@vap/speech';

const httpUrl = /^https?:\/\/[^\s]+$/;

/** The longest call, and a minute for its farewell, hang-up and report. */
export const DEFAULT_DRAIN_DEADLINE_MS = (LONGEST_CALL_SECS + 60) * 1000;

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
    return isPublicHostName(host);
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} points at a private or loopback address; set PROVIDER_ALLOW_PRIVATE_NETWORKS=true to allow it`;
  }
}

/** A provider list setting (STT_PROVIDER, TTS_PROVIDER): set, known names, each once, offline last. */
@ValidatorConstraint({ name: 'providerList' })
class ProviderListConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return typeof value === 'string' && value.trim() !== '' && !this.problem(value, args);
  }

  defaultMessage(args: ValidationArguments): string {
    const known = args.constraints[0] as readonly string[];
    if (typeof args.value !== 'string' || args.value.trim() === '') {
      return (
        `${args.property} must be chosen outside development: ${known.join(', ')}, or a list of them to fall ` +
        `back along (offline understands only the platform's own synthetic speech, not a caller)`
      );
    }
    return `${args.property} ${this.problem(args.value, args)}`;
  }

  private problem(value: string, args: ValidationArguments): string | undefined {
    return providerListProblem(value, args.constraints[0] as readonly string[]);
  }
}

/** LLM_FALLBACK_BASE_URL is a fallback of LLM_BASE_URL; without one the offline engine answers, and never fails. */
@ValidatorConstraint({ name: 'needsPrimaryLlm' })
class NeedsPrimaryLlmConstraint implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    return !!(args.object as VoiceConfig).LLM_BASE_URL;
  }

  defaultMessage(): string {
    return "LLM_FALLBACK_BASE_URL needs LLM_BASE_URL (it is that server's fallback)";
  }
}

/** Settings of the voice service (the media plane), validated at boot. */
export class VoiceConfig extends BaseServiceConfig {
  /** HTTP port: carriers' media WebSockets under /media, health and metrics. */
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
   * @default `http://127.0.0.1:<PORT>` in development only; else required
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
   * (`replica_draining`) and exits once they have reported (at once when none is live). The default outlasts
   * the longest call an agent may have, so a rollout or a scale-down never cuts one; the pod's termination
   * grace period must cover it (k8s/base/apps/voice.yaml).
   * @default `3660000` (the longest call, 3600 s, and a minute)
   */
  @IntSetting({ min: 0, max: 86400000 })
  DRAIN_DEADLINE_MS: number = DEFAULT_DRAIN_DEADLINE_MS;

  /**
   * Largest media message a stream may send, in bytes: a carrier's 20 ms frame is about 300 as JSON and its
   * `start` well under this; a browser's 20 ms of PCM16 16 kHz is 640. A larger one closes the stream (1009) and
   * hangs the call up.
   */
  @IntSetting({ min: 1024, max: 262144 })
  MEDIA_MAX_MESSAGE_BYTES: number = 8192;

  /**
   * Caller audio is accepted at the media clock's rate plus this much ahead of it (wall ms: room for a network
   * or event-loop stall); the excess is dropped and counted (voice_inbound_audio_dropped_seconds_total).
   */
  @IntSetting({ min: 100, max: 60000 })
  MEDIA_AUDIO_BURST_MS: number = 2000;

  /** A caller utterance longer than this (media ms) is cut and transcribed; the speech goes on as the next one. */
  @IntSetting({ min: 1000, max: 600000 })
  MEDIA_MAX_UTTERANCE_MS: number = 30000;

  /** A ping every this many wall ms; a pong missing by the next ping ends the call (media_stream_unresponsive). */
  @IntSetting({ min: 100, max: 600000 })
  MEDIA_PING_INTERVAL_MS: number = 10000;

  /** A stream that sends nothing for this many wall ms is closed and its call ended (media_stream_silent). */
  @IntSetting({ min: 100, max: 600000 })
  MEDIA_INBOUND_SILENCE_MS: number = 10000;

  /**
   * Bytes the replica may hold for a carrier that is not reading what it is sent; beyond this the stream is
   * dropped and the call ended (media_stream_unresponsive).
   */
  @IntSetting({ min: 16384, max: 67108864 })
  MEDIA_MAX_BUFFERED_BYTES: number = 262144;

  /**
   * Media streams one replica serves at once; more are closed at their handshake with 1013 (try again
   * later, the token unspent) and /health/ready fails while the replica is full. The default is what one
   * replica was measured to carry on 2 cores with its pacing targets met (bench/README.md).
   */
  @IntSetting({ min: 1, max: 100000 })
  MAX_LIVE_SESSIONS: number = 200;

  /**
   * The deployment's default speech to text, for agents that choose no transcriber (or whose choice has no key):
   * local (PocketSphinx on the replica, US English, no key: Debian's pocketsphinx, pocketsphinx-en-us and
   * python3-pocketsphinx; the development default), offline (the signal engine: deterministic, no network, and
   * it understands only the platform's own synthetic speech, for tests) or a cloud provider on STT_BASE_URL
   * (openai for any OpenAI-compatible server, deepgram, assemblyai, sarvam); or a list of them, the order a call
   * falls back along when one fails (`deepgram,openai`). Named explicitly outside development, where a silent
   * default would have a real caller's words go unheard. Agents choose their own transcriber, on the partner's
   * key or the platform's (docs/voice.md). Without the Debian packages, local runs on the offline engine and the
   * replica's log and /health/ready say so.
   */
  @DevelopmentValue('local', { refuse: () => false })
  @Validate(ProviderListConstraint, [STT_PROVIDERS])
  STT_PROVIDER: string = '';

  /**
   * Base URL of the first network speech-to-text provider STT_PROVIDER lists (the OpenAI SDK's convention: it
   * names the API version).
   */
  @ValidateIf((c: VoiceConfig) => c.sttNetworkProviders >= 1 || c.STT_BASE_URL !== undefined)
  @Matches(httpUrl, {
    message: 'STT_BASE_URL must be an http(s) URL (required unless STT_PROVIDER is offline or local)',
  })
  @Validate(PublicProviderUrlConstraint)
  STT_BASE_URL?: string;

  /** API key of STT_BASE_URL. */
  @IsOptional()
  @IsString()
  STT_API_KEY?: string;

  /** Speech-to-text model; unset: the provider's default. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  STT_MODEL?: string;

  /** The second network provider of STT_PROVIDER's list (deepgram,openai: openai's). */
  @ValidateIf((c: VoiceConfig) => c.sttNetworkProviders >= 2 || c.STT_FALLBACK_BASE_URL !== undefined)
  @Matches(httpUrl, {
    message:
      'STT_FALLBACK_BASE_URL must be an http(s) URL (required when STT_PROVIDER lists two network providers)',
  })
  @Validate(PublicProviderUrlConstraint)
  STT_FALLBACK_BASE_URL?: string;

  /** API key of STT_FALLBACK_BASE_URL. */
  @IsOptional()
  @IsString()
  STT_FALLBACK_API_KEY?: string;

  /** The fallback provider's model; unset: its default. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  STT_FALLBACK_MODEL?: string;

  /**
   * The deployment's default text to speech: local (eSpeak NG on the replica, many languages, no key: Debian's
   * espeak-ng), offline (the signal engine, deterministic, no network) or a
   * cloud provider on TTS_BASE_URL (openai for any OpenAI-compatible server, elevenlabs, cartesia, deepgram,
   * azure, sarvam), or one of them then offline. It speaks an agent's voice when the voice's provider is this one
   * and the plan has no key of its own for it; a voice of another provider is never sent here, except to local
   * speech, which stands in (in the voice's language) for a voice whose provider has no key.
   */
  @DevelopmentValue('local,offline', { refuse: () => false })
  @Validate(ProviderListConstraint, [TTS_PROVIDERS])
  TTS_PROVIDER: string = '';

  /** Base URL of TTS_PROVIDER's cloud provider (for openai, the server whose /audio/speech streams PCM). */
  @ValidateIf(
    (c: VoiceConfig) =>
      providerNames(c.TTS_PROVIDER).some((name) => isNetworkSpeechProvider(name, TTS_PROVIDERS)) ||
      c.TTS_BASE_URL !== undefined,
  )
  @Matches(httpUrl, {
    message: 'TTS_BASE_URL must be an http(s) URL (required unless TTS_PROVIDER is offline or local)',
  })
  @Validate(PublicProviderUrlConstraint)
  TTS_BASE_URL?: string;

  /** API key of TTS_BASE_URL. */
  @IsOptional()
  @IsString()
  TTS_API_KEY?: string;

  /** Text-to-speech model; unset: the agent's voice's model. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  TTS_MODEL?: string;

  /**
   * Local speech: the Python whose pocketsphinx module the recogniser runs on (Debian's python3-pocketsphinx).
   * @default /usr/bin/python3 where it exists (a python3 first on PATH may be a pyenv or virtualenv one without
   * the module), else python3
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  LOCAL_SPEECH_PYTHON?: string;

  /**
   * Local speech: the eSpeak NG program.
   * @default espeak-ng
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  LOCAL_SPEECH_ESPEAK?: string;

  /**
   * Local speech: recogniser processes of the replica, each holding the model (about 40 MB) and decoding one
   * utterance at a time; one started while the replica boots, the others as calls need them. Unset: one per CPU
   * (at most 16).
   */
  @IsOptional()
  @IntSetting({ min: 1, max: 16 }) // MAX_LOCAL_STT_WORKERS
  LOCAL_STT_WORKERS?: number;

  /** OpenAI-compatible chat completions for the agent's turns (the calls service's names); unset = offline. */
  @IsOptional()
  @Matches(httpUrl, { message: 'LLM_BASE_URL must be an http(s) URL' })
  @Validate(PublicProviderUrlConstraint)
  LLM_BASE_URL?: string;

  /** API key of LLM_BASE_URL's server. */
  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  /** The agent's model during a call. */
  @IsString()
  LLM_MODEL: string = 'gpt-4o-mini';

  /** Deadline of one model request. */
  @IntSetting({ min: 100, max: 120000 })
  LLM_TIMEOUT_MS: number = 15000;

  /**
   * A second OpenAI-compatible server for the agent's turns: a turn whose model fails before any of its reply
   * was spoken is asked of it instead, and the call stays on it. Needs LLM_BASE_URL (the offline engine never
   * fails).
   */
  @ValidateIf((c: VoiceConfig) => c.LLM_FALLBACK_BASE_URL !== undefined)
  @Matches(httpUrl, { message: 'LLM_FALLBACK_BASE_URL must be an http(s) URL' })
  @Validate(PublicProviderUrlConstraint)
  @Validate(NeedsPrimaryLlmConstraint)
  LLM_FALLBACK_BASE_URL?: string;

  /** API key of LLM_FALLBACK_BASE_URL's server. */
  @IsOptional()
  @IsString()
  LLM_FALLBACK_API_KEY?: string;

  /** The fallback server's model; default LLM_MODEL. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  LLM_FALLBACK_MODEL?: string;

  /**
   * Deadline of one speech-provider step (first byte of synthesis, a transcription); then the next provider listed
   * takes over, or, with none left, the call apologises and ends.
   */
  @IntSetting({ min: 100, max: 120000 })
  PROVIDER_TIMEOUT_MS: number = 8000;

  /** Let provider base URLs name private or loopback addresses (in-cluster or local providers, tests). */
  @BoolSetting()
  PROVIDER_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** The platform-wide development/test switch counts too (`npm start` and the e2e harness set it). */
  @BoolSetting()
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** Network providers (not offline or local) STT_PROVIDER lists. */
  get sttNetworkProviders(): number {
    return providerNames(this.STT_PROVIDER).filter((name) => isNetworkSpeechProvider(name, STT_PROVIDERS))
      .length;
  }

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
