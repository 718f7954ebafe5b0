import { IsIn, IsOptional, IsString, Matches, MinLength } from 'class-validator';
import { DevelopmentValue, IntSetting } from '@vap/runtime';
import { DEV_SANDBOX_AUTH_TOKEN, isDevelopmentSecret } from '@vap/secrets';

const httpBaseUrl = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;
const mediaBaseUrl = /^(https?|wss?):\/\/[^\s/?#]+(\/[^\s?#]*)?$/;
const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The sandbox carrier's settings. It is a carrier_b account host for one account, the platform's; it only
 * ever calls back the platform's own callback base and opens streams on its media base.
 */
export class SandboxCarrierConfig {
  /** production refuses the development defaults below (the published auth token, local URLs). */
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'production';

  /** Port of its carrier_b REST API, /health and /metrics (SANDBOX_CARRIER_URL of the calls service points here). */
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3006;

  /** Address it listens on. */
  @IsString()
  HOST: string = '0.0.0.0';

  /** Log level of its JSON log lines (info logs start and stop; warn and error, calls that went wrong). */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** The one account this carrier hosts (the calls service's SANDBOX_ACCOUNT_SID / SANDBOX_AUTH_TOKEN). */
  @Matches(/^AC[A-Za-z0-9]{1,64}$/, {
    message: 'SANDBOX_ACCOUNT_SID must be AC followed by letters or digits',
  })
  SANDBOX_ACCOUNT_SID: string = 'ACsandbox';

  /**
   * The account's auth token (32+ characters): the platform's API requests must carry it, and it signs every
   * callback and media-stream upgrade. The same value as the calls service's SANDBOX_AUTH_TOKEN.
   */
  @DevelopmentValue(DEV_SANDBOX_AUTH_TOKEN, { refuse: isDevelopmentSecret })
  @IsString({ message: 'SANDBOX_AUTH_TOKEN must be set (the same as the calls service has)' })
  @MinLength(32, { message: 'SANDBOX_AUTH_TOKEN must be at least 32 characters' })
  SANDBOX_AUTH_TOKEN: string = '';

  /** The gateway's public base URL; callback and answer URLs must lie under the callback base. */
  @DevelopmentValue('http://127.0.0.1:3000', { refuse: () => false })
  @IsOptional()
  @Matches(httpBaseUrl, { message: 'PUBLIC_BASE_URL must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  /** The platform's callback base when it is not PUBLIC_BASE_URL (as the calls service has it). */
  @IsOptional()
  @Matches(httpBaseUrl, { message: 'CALLBACK_BASE_URL must be an http(s) URL' })
  CALLBACK_BASE_URL?: string;

  /** The voice service's public base URL: media streams must be opened under it. */
  @DevelopmentValue('http://127.0.0.1:3005', { refuse: () => false })
  @Matches(mediaBaseUrl, { message: 'MEDIA_PUBLIC_URL must be an http(s) or ws(s) URL' })
  MEDIA_PUBLIC_URL: string = '';

  /**
   * Where callbacks really go when the public callback base does not route from here (compose:
   * http://gateway:3000); they stay signed for the public URL, as a carrier's behind a proxy are.
   */
  @IsOptional()
  @Matches(httpBaseUrl, { message: 'SANDBOX_CALLBACK_URL must be an http(s) URL' })
  SANDBOX_CALLBACK_URL?: string;

  /** Where media streams really open when MEDIA_PUBLIC_URL does not route from here (compose: http://voice:3005). */
  @IsOptional()
  @Matches(mediaBaseUrl, { message: 'SANDBOX_MEDIA_URL must be an http(s) or ws(s) URL' })
  SANDBOX_MEDIA_URL?: string;

  /** Real time between two steps of a call's setup (initiated, ringing, answer). */
  @IntSetting({ min: 1, max: 60000 })
  SANDBOX_STEP_MS: number = 250;

  /** How much faster than real time the phone's media clock runs; tests only, with voice's alike. */
  @IntSetting({ min: 1, max: 100 })
  MEDIA_TIME_SCALE: number = 1;

  /** Simulated calls live at once; a placement beyond it is refused (429), as a carrier's CPS limit. */
  @IntSetting({ min: 1, max: 10000 })
  SANDBOX_MAX_LIVE_CALLS: number = 200;

  /** Ended calls whose resource can still be fetched (the oldest are forgotten first). */
  @IntSetting({ min: 100, max: 1000000 })
  SANDBOX_ENDED_CALLS_KEPT: number = 10000;

  /** At SIGTERM, how long live calls get to report their end (as dropped) before the process exits. */
  @IntSetting({ min: 1000, max: 300000 })
  SHUTDOWN_TIMEOUT_MS: number = 15000;

  /** The base every callback and answer URL handed to this carrier must start with. */
  get callbackBase(): string {
    return withoutTrailingSlash(this.CALLBACK_BASE_URL || this.PUBLIC_BASE_URL || '');
  }

  get mediaBase(): string {
    return withoutTrailingSlash(this.MEDIA_PUBLIC_URL);
  }
}

/** `url` moved from `publicBase` to `actualBase` (same path and query), or as it is when not under it. */
export function rebased(url: string, publicBase: string, actualBase: string | undefined): string {
  if (!actualBase) return url;
  const from = withoutTrailingSlash(publicBase);
  const to = withoutTrailingSlash(actualBase);
  const fromWs = from.replace(/^http/, 'ws');
  for (const base of [from, fromWs]) {
    if (url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`)) {
      const target = url.startsWith('ws') ? to.replace(/^http/, 'ws') : to.replace(/^ws/, 'http');
      return `${target}${url.slice(base.length)}`;
    }
  }
  return url;
}

/** True when `url` lies under `base` (http and ws spellings of the same base alike). */
export function isUnder(url: string, base: string): boolean {
  if (!base) return false;
  const b = withoutTrailingSlash(base);
  const variants = [b, b.replace(/^http/, 'ws'), b.replace(/^ws/, 'http')];
  return variants.some((v) => url.startsWith(`${v}/`));
}
