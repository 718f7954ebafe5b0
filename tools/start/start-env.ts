import { DEV_ADMIN_TOKEN, DEV_SECRETS_KEY } from '@vap/secrets';
import { Env, LauncherSetting, PLATFORM_DEFAULT_SETTINGS, PLATFORM_OWNED_SETTINGS } from '@vap/testing';

/** How `npm start` resolves the infrastructure startPlatform is given (start.ts). */
const INFRASTRUCTURE: Readonly<Record<string, string>> = {
  PORT: 'the gateway: `PORT` (default 3000); the others 3001..3006, or a free port when theirs is taken',
  DATABASE_URL:
    '`DATABASE_URL` when set, else `voice_agent_platform` on 127.0.0.1:5432 or on a server it starts',
  NATS_URL: '`NATS_URL` when set, else 127.0.0.1:4222 or a nats-server it starts',
  NATS_SUBJECT_PREFIX: '`NATS_SUBJECT_PREFIX` as set (unset: none)',
};

/**
 * What `npm start` sets itself, whatever its environment says: development mode (the development secrets and
 * conveniences below depend on it), and what startPlatform owns. Every other setting of docs/configuration.md
 * in its environment (or the root .env) reaches the apps unchanged.
 */
export const NPM_START_OWNED_SETTINGS: readonly LauncherSetting[] = [
  { name: 'NODE_ENV', sets: '`development`' },
  ...PLATFORM_OWNED_SETTINGS.map((s) => ({ ...s, sets: INFRASTRUCTURE[s.name] ?? s.sets })),
];

const START_DEFAULTS: readonly LauncherSetting[] = [
  { name: 'LOG_LEVEL', sets: '`info`' },
  { name: 'ADMIN_API_TOKEN', apps: ['gateway'], sets: `the development token, \`${DEV_ADMIN_TOKEN}\`` },
  { name: 'SECRETS_KEY', sets: 'the development key (kept off voice, which gets its stream-token key)' },
  { name: 'SANDBOX_CALLBACK_URL', apps: ['sandbox-carrier'], sets: 'the gateway it started' },
  { name: 'SANDBOX_MEDIA_URL', apps: ['sandbox-carrier'], sets: 'the voice app it started' },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
    sets: '`true`: webhooks, documents and providers on this machine are reachable',
  },
  { name: 'PUBLIC_BASE_URL', sets: 'the gateway it started' },
  { name: 'MEDIA_PUBLIC_URL', apps: ['calls', 'voice', 'gateway'], sets: 'the voice app it started' },
];

/** What `npm start` fills in when its environment leaves it unset. */
export const NPM_START_DEFAULT_SETTINGS: readonly LauncherSetting[] = [
  ...START_DEFAULTS,
  ...PLATFORM_DEFAULT_SETTINGS.filter((p) => !START_DEFAULTS.some((s) => s.name === p.name)),
];

export interface StartEnvInput {
  gatewayPort: number;
  voicePort: number;
}

/**
 * The environment `npm start` asks startPlatform to give every app: its own settings, and defaults for what
 * `processEnv` leaves unset. Every other variable of `processEnv` the apps inherit as it is.
 */
export function startEnvOf(processEnv: Env, { gatewayPort, voicePort }: StartEnvInput): Env {
  const given = (name: string): string | undefined => processEnv[name] || undefined;
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: given('LOG_LEVEL') ?? 'info',
    ADMIN_API_TOKEN: given('ADMIN_API_TOKEN') ?? DEV_ADMIN_TOKEN,
    SECRETS_KEY: given('SECRETS_KEY') ?? DEV_SECRETS_KEY,
    // Carriers (the sandbox too) call back here, and recording and upload URLs point here.
    PUBLIC_BASE_URL: given('PUBLIC_BASE_URL') ?? `http://127.0.0.1:${gatewayPort}`,
    // Carriers (the sandbox phone too) open media streams here; calls hands out URLs on it, voice checks them.
    MEDIA_PUBLIC_URL: given('MEDIA_PUBLIC_URL') ?? `http://127.0.0.1:${voicePort}`,
    // The sandbox carrier runs on this machine: it reaches the gateway and the voice app here even when the
    // public URLs above are an address that does not route back yet.
    SANDBOX_CALLBACK_URL: given('SANDBOX_CALLBACK_URL') ?? `http://127.0.0.1:${gatewayPort}`,
    SANDBOX_MEDIA_URL: given('SANDBOX_MEDIA_URL') ?? `http://127.0.0.1:${voicePort}`,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: given('WEBHOOK_ALLOW_PRIVATE_NETWORKS') ?? 'true',
  };
}
