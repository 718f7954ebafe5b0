import { isSecretsKey, streamTokenKeyOf } from '@vap/secrets';

/**
 * The services behind the gateway (voice is the media plane: carriers reach it directly), and the sandbox
 * carrier, the carrier simulator every partner's Sandbox connection calls through.
 */
export const BACKEND_SERVICES = [
  'agents',
  'calls',
  'campaigns',
  'webhooks',
  'voice',
  'sandbox-carrier',
] as const;
export type BackendService = (typeof BACKEND_SERVICES)[number];
export type PlatformApp = BackendService | 'gateway';

export type Env = Record<string, string | undefined>;

/** A setting a launcher sets itself: what it sets, and for which apps (all of them when `apps` is absent). */
export interface LauncherSetting {
  name: string;
  apps?: readonly PlatformApp[];
  /** What the app gets, in a phrase for docs/configuration.md. */
  sets: string;
}

/**
 * What `startPlatform` (npm start, the e2e run, benchmarks) sets itself, whatever its environment says: the
 * address of what it started or was given (ports, database, NATS), and the master keys kept off voice. Every
 * other variable of the launcher's environment reaches every app unchanged; a setting added here must be one a
 * launcher cannot leave to the environment (a spec walks every documented setting against this list).
 */
export const PLATFORM_OWNED_SETTINGS: readonly LauncherSetting[] = [
  { name: 'PORT', sets: 'the port it chose for each app' },
  { name: 'DATABASE_URL', sets: 'the database it was given' },
  { name: 'NATS_URL', sets: 'the NATS server it was given' },
  { name: 'NATS_SUBJECT_PREFIX', sets: 'the subject prefix it was given (empty: none)' },
  { name: 'SANDBOX_CARRIER_URL', apps: ['calls'], sets: 'the sandbox carrier it started' },
  {
    name: 'SECRETS_KEY',
    apps: ['voice'],
    sets: 'nothing: voice holds the stream-token key only, as deployed',
  },
  { name: 'BLOB_SIGNING_KEY', apps: ['voice'], sets: 'nothing: voice signs no blob URLs, as deployed' },
];

/**
 * What `startPlatform` fills in when neither the caller nor the environment sets it: values that follow from
 * what it started. A value in the environment wins.
 */
export const PLATFORM_DEFAULT_SETTINGS: readonly LauncherSetting[] = [
  { name: 'HOST', sets: '`127.0.0.1`: the apps listen on this machine only' },
  {
    name: 'NODE_COMPILE_CACHE',
    sets: "`tmp/node-compile-cache` in the repository: Node keeps the compiled code of the apps' modules there, so a second start compiles a quarter less (Node's own setting, not the platform's)",
  },
  { name: 'PUBLIC_BASE_URL', sets: 'the first gateway it started' },
  { name: 'MEDIA_PUBLIC_URL', apps: ['calls', 'voice', 'gateway'], sets: 'the voice app it started' },
  {
    name: 'SANDBOX_AUTH_TOKEN',
    apps: ['calls', 'sandbox-carrier'],
    sets: 'a random token, fresh per start, the same for calls and the sandbox carrier',
  },
  {
    name: 'STREAM_TOKEN_KEY',
    apps: ['voice'],
    sets: "the stream-token key of the calls service's SECRETS_KEY",
  },
];

/**
 * The speech providers of a platform started outside development (tests, benchmarks): offline, the platform's
 * own deterministic speech, which the sandbox phone speaks and the tests read back word for word (and the agents
 * service's previews of stand-in voices likewise). Outside development the voice app takes no default (a real
 * caller would go unheard), so such a launcher names them itself, in its own env, where a spec or a caller's
 * environment may name others. Development (`npm start`, `nx serve`) needs none: local speech (eSpeak NG,
 * PocketSphinx) is the app's development default.
 */
export const OFFLINE_SPEECH: Readonly<Env> = {
  STT_PROVIDER: 'offline',
  TTS_PROVIDER: 'offline',
  SPEECH_STAND_IN: 'offline',
};

/** Whether `name` is a setting of `app` that a launcher listed in `settings` sets itself. */
export function isLauncherSetting(
  settings: readonly LauncherSetting[],
  name: string,
  app: PlatformApp,
): boolean {
  return settings.some((s) => s.name === name && (!s.apps || s.apps.includes(app)));
}

export interface PlatformEnvInput {
  databaseUrl: string;
  natsUrl: string;
  /** NATS_SUBJECT_PREFIX of this deployment (empty: none). */
  subjectPrefix?: string;
  /** The caller's environment for every app, on top of the launcher's own. */
  env?: Env;
  /** The caller's environment for one app, on top of `env`. */
  appEnv?: Partial<Record<PlatformApp, Env>>;
  /** The first gateway's port; absent when no gateway is started. */
  gatewayPort?: number;
  voicePort: number;
  sandboxCarrierPort: number;
  /** SANDBOX_AUTH_TOKEN when neither the caller nor the environment sets one. */
  sandboxAuthToken: string;
}

export interface PlatformEnv {
  /** What every app gets on top of the launcher's environment (what another replica needs to join them). */
  shared: Env;
  /** What `app` gets on top of the launcher's environment. */
  of(app: PlatformApp): Env;
}

/**
 * The environment of each app of a platform, on top of the launcher's own (`processEnv`, which the apps
 * inherit): its owned settings (PLATFORM_OWNED_SETTINGS), its defaults where the caller and `processEnv` leave
 * them unset (PLATFORM_DEFAULT_SETTINGS), and the caller's choices. Pure, so a spec can hold it to passing every
 * other setting through.
 */
export function platformEnvOf(input: PlatformEnvInput, processEnv: Env): PlatformEnv {
  const given = (name: string): string | undefined => input.env?.[name] || processEnv[name] || undefined;
  const shared: Env = {
    ...(input.gatewayPort !== undefined
      ? { PUBLIC_BASE_URL: given('PUBLIC_BASE_URL') ?? `http://127.0.0.1:${input.gatewayPort}` }
      : {}),
    MEDIA_PUBLIC_URL: given('MEDIA_PUBLIC_URL') ?? `http://127.0.0.1:${input.voicePort}`,
    // The platform's account at the sandbox carrier: the same for calls and the simulator.
    SANDBOX_AUTH_TOKEN: given('SANDBOX_AUTH_TOKEN') ?? input.sandboxAuthToken,
    ...input.env,
    SANDBOX_CARRIER_URL: `http://127.0.0.1:${input.sandboxCarrierPort}`,
    DATABASE_URL: input.databaseUrl,
    NATS_URL: input.natsUrl,
    NATS_SUBJECT_PREFIX: input.subjectPrefix ?? '',
  };
  const voice = voiceEnvOf(shared, processEnv);
  return {
    shared,
    of: (app) => ({ ...(app === 'voice' ? voice : shared), ...input.appEnv?.[app] }),
  };
}

/**
 * The voice app's environment from the platform's: as deployed, it holds no master key, only the stream-token
 * key derived from the calls service's SECRETS_KEY (unless one is given), and no blob signing key.
 */
export function voiceEnvOf(env: Env, processEnv: Env = process.env): Env {
  const secretsKey = env.SECRETS_KEY ?? processEnv.SECRETS_KEY;
  const given = env.STREAM_TOKEN_KEY || processEnv.STREAM_TOKEN_KEY;
  return {
    ...env,
    SECRETS_KEY: undefined,
    BLOB_SIGNING_KEY: undefined,
    ...(isSecretsKey(secretsKey) && !given ? { STREAM_TOKEN_KEY: streamTokenKeyOf(secretsKey!) } : {}),
  };
}
