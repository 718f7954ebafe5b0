import { IsOptional, IsString, Matches, MinLength } from 'class-validator';
import { BaseServiceConfig, DevelopmentValue, IntSetting } from '@vap/runtime';
import { DEV_ADMIN_TOKEN, isDevelopmentSecret } from '@vap/secrets';

export class GatewayConfig extends BaseServiceConfig {
  /** HTTP port of the public API (and health and metrics). */
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3000;

  /**
   * Bearer token of the operator API (/admin/v1). Only NODE_ENV=development falls back to
   * `dev-admin-token` (so `nx serve gateway` works alone); anywhere else it must be set, and not to that.
   * @default `dev-admin-token` in development only; else required
   */
  @DevelopmentValue(DEV_ADMIN_TOKEN, { refuse: isDevelopmentSecret })
  @IsString({ message: 'ADMIN_API_TOKEN is required (the operator API token)' })
  @MinLength(12, { message: 'ADMIN_API_TOKEN must be set, at least 12 characters' })
  ADMIN_API_TOKEN: string = '';

  /**
   * How long a replica may answer for an API key without asking Postgres: the bound on a revocation or an
   * account change whose notice another replica never got (the replica that made it forgets at once). 0: no
   * cache.
   */
  @IntSetting({ min: 0, max: 60_000 })
  API_KEY_CACHE_TTL_MS: number = 5000;

  /** Requests per API key and minute, shared by every gateway replica. */
  @IntSetting({ min: 1 })
  RATE_LIMIT_GENERAL_PER_MINUTE: number = 60;

  /** Requests per API key and minute under /calls. */
  @IntSetting({ min: 1 })
  RATE_LIMIT_CALLS_PER_MINUTE: number = 10;

  /**
   * Requests per account and minute, all its API keys together (the per-key limits apply as well).
   * Default: 5 keys' worth of RATE_LIMIT_GENERAL_PER_MINUTE's default.
   */
  @IntSetting({ min: 1 })
  RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: number = 300;

  /** Requests per account and minute under /calls, all its API keys together. */
  @IntSetting({ min: 1 })
  RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE: number = 50;

  /**
   * Requests per console session and minute: the console's requests (its own routes and the public API's
   * under /console/api/v2) count here instead of against any API key's or the account's API limits.
   */
  @IntSetting({ min: 1 })
  RATE_LIMIT_CONSOLE_SESSION_PER_MINUTE: number = 600;

  /** Console requests per account and minute, all its users' sessions together (the per-session limit applies as well). */
  @IntSetting({ min: 1 })
  RATE_LIMIT_CONSOLE_ACCOUNT_PER_MINUTE: number = 1800;

  /** Live views (server-sent events under /console/api/live) open at once per console session, on each replica. */
  @IntSetting({ min: 1, max: 100 })
  CONSOLE_LIVE_STREAMS_PER_SESSION: number = 5;

  /** Live views open at once per account, all its sessions together, on each replica. */
  @IntSetting({ min: 1, max: 10_000 })
  CONSOLE_LIVE_STREAMS_PER_ACCOUNT: number = 50;

  /** A live view closes after this long (the browser's EventSource then reconnects, with a fresh session check). */
  @IntSetting({ min: 10, max: 86_400 })
  CONSOLE_LIVE_STREAM_MAX_SECONDS: number = 1800;

  /**
   * How often a live view re-reads its call or session without an event: the safety net for an event this
   * replica missed (changes seen as events are sent at once).
   */
  @IntSetting({ min: 500, max: 60_000 })
  CONSOLE_LIVE_RECHECK_MS: number = 2500;

  /** Largest JSON body (413 PAYLOAD_TOO_LARGE beyond it). */
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must look like 1mb, 512kb or 1048576b' })
  BODY_LIMIT: string = '1mb';

  /**
   * The gateway's public base URL: every absolute link the gateway hands out (upload and recording URLs, the
   * console's invitation and reset links) starts with it, never with what a client sent as Host or
   * X-Forwarded-Proto; the console's pages are of its origin. Required; only
   * NODE_ENV=development falls back to http://127.0.0.1:3000.
   */
  @DevelopmentValue('http://127.0.0.1:3000', { refuse: () => false })
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, {
    message: "PUBLIC_BASE_URL must be set to the gateway's public http(s) URL, e.g. https://api.example.com",
  })
  PUBLIC_BASE_URL: string = '';

  /**
   * The voice service's public base URL, as the calls service hands it to browsers (a browser session's
   * connect_url): the console's pages may open voice sockets there (its Content-Security-Policy names it) to
   * let a person talk to an agent. Unset: the console cannot open them. NODE_ENV=development falls back to
   * the local voice service.
   */
  @DevelopmentValue('http://127.0.0.1:3005', { refuse: () => false })
  @IsOptional()
  @Matches(/^(https?|wss?):\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, {
    message:
      "MEDIA_PUBLIC_URL must be the voice service's http(s) or ws(s) base URL, without query, fragment or credentials",
  })
  MEDIA_PUBLIC_URL?: string;

  /**
   * Proxies in front of the gateway whose forwarded headers are believed: X-Forwarded-For for a client's
   * address (per-address limits), X-Forwarded-Proto and -Host for the request's protocol and host. 0: none
   * (the TCP peer is the client; anyone can write those headers). Behind one ingress or load balancer: 1.
   */
  @IntSetting({ min: 0, max: 10 })
  TRUST_PROXY_HOPS: number = 0;

  /** Per client address and minute, on the surfaces without an API key. */
  @IntSetting({ min: 1 })
  RATE_LIMIT_ADDRESS_ADMIN_PER_MINUTE: number = 300;

  /** Carriers call back from a few addresses, in bursts when many calls start at once: generous. */
  @IntSetting({ min: 1 })
  RATE_LIMIT_ADDRESS_CALLBACKS_PER_MINUTE: number = 12000;

  /** Per client address and minute, on signed upload and download URLs. */
  @IntSetting({ min: 1 })
  RATE_LIMIT_ADDRESS_UPLOADS_PER_MINUTE: number = 600;

  /** Per client address and minute, on the console's sign-in and one-time links (wrong passwords also lock out). */
  @IntSetting({ min: 1 })
  RATE_LIMIT_ADDRESS_CONSOLE_PER_MINUTE: number = 60;

  /** Partner-API requests whose API key is missing or invalid; valid keys are never limited by address. */
  @IntSetting({ min: 1 })
  RATE_LIMIT_ADDRESS_INVALID_KEY_PER_MINUTE: number = 60;

  /** Wrong operator tokens from one address before it is locked out of the operator API. */
  @IntSetting({ min: 1 })
  ADMIN_LOCKOUT_AFTER_FAILURES: number = 5;

  /** The first lockout; each further failure doubles it, up to an hour. */
  @IntSetting({ min: 1, max: 3600 })
  ADMIN_LOCKOUT_SECONDS: number = 60;

  /** How often the gateway asks the calls service for charges it has not debited (also once at start). */
  @IntSetting({ min: 1000, max: 86_400_000 })
  BILLING_RECONCILE_INTERVAL_MS: number = 300_000;

  /**
   * The calls service's price of one minute (its CALL_PRICE_PER_MINUTE_PAISE): the least a reseller's rate
   * card may charge its clients, and the platform's charge for a client's call that the reseller's margin is
   * counted over. Deploy both services with the same value.
   */
  @IntSetting({ min: 0 })
  CALL_PRICE_PER_MINUTE_PAISE: number = 400;

  /** Days a reseller's on-behalf requests stay in its clients' audit (GET /clients/{id}/audit). */
  @IntSetting({ min: 1, max: 3650 })
  RESELLER_AUDIT_RETENTION_DAYS: number = 90;
}
