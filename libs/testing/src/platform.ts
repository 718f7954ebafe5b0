import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { isSecretsKey, streamTokenKeyOf } from '@vap/secrets';
import { freePort } from './ports';
import { ServiceHandle, startService, StartServiceOptions } from './service';

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

/** The ports the apps listen on by default (`npm start`). */
export const DEFAULT_PORTS: Record<PlatformApp, number> = {
  gateway: 3000,
  agents: 3001,
  calls: 3002,
  campaigns: 3003,
  webhooks: 3004,
  voice: 3005,
  'sandbox-carrier': 3006,
};

export interface StartPlatformOptions {
  databaseUrl: string;
  natsUrl: string;
  /** NATS_SUBJECT_PREFIX of this deployment (empty: none). */
  subjectPrefix?: string;
  /**
   * Environment for every app (on top of ours). PUBLIC_BASE_URL, the gateway's public base that callback,
   * recording and upload URLs derive from, defaults to the first gateway started here; MEDIA_PUBLIC_URL,
   * the media plane's base that stream URLs derive from (for calls and voice), to the voice app started
   * here. MEDIA_TIME_SCALE and the speech settings reach voice from here like any other variable.
   */
  env?: Record<string, string | undefined>;
  /** Environment of one app on top of `env` (e.g. each app's own NATS_PASSWORD). */
  appEnv?: Partial<Record<PlatformApp, Record<string, string | undefined>>>;
  /** Which services to start (default all of them). */
  services?: readonly BackendService[];
  /** Gateways to start once the services are ready (default 1; 0 for none). */
  gatewayReplicas?: number;
  /** Replicas of a backend service (default 1); the first is `Platform.services[name]`, the others `<name>-2`... */
  replicas?: Partial<Record<BackendService, number>>;
  /** Fixed ports per service; unspecified ones get a free port. */
  ports?: Partial<Record<BackendService, number>>;
  /** Fixed ports for the gateway replicas, in order; the others get free ports. */
  gatewayPorts?: number[];
  /** Extra Node flags per app (e.g. `{ gateway: ['--cpu-prof'] }` for a benchmark's profile). */
  nodeArgs?: Partial<Record<PlatformApp, string[]>>;
  /** Write each app's output to `<logDir>/<app>.log`. */
  logDir?: string;
  /** Print each app's output to our stdout, behind its name. */
  prefixLogs?: boolean;
  /** Start each app in its own process group (see StartServiceOptions.ownProcessGroup). */
  ownProcessGroup?: boolean;
  readyTimeoutMs?: number;
  /** What "started" means for every app (see StartServiceOptions.readyPath); for a partial platform. */
  readyPath?: StartServiceOptions['readyPath'];
  stopTimeoutMs?: number;
  /** Abandons the start: what was started is stopped and the promise rejects. */
  signal?: AbortSignal;
  rootDir?: string;
}

export interface Platform {
  /** Base URL of the first gateway, e.g. http://127.0.0.1:3000 (throws when no gateway was started). */
  readonly gatewayUrl: string;
  /** MEDIA_PUBLIC_URL the calls and voice services got: where carriers open media streams. */
  readonly mediaPublicUrl: string;
  /**
   * The environment every app got (on top of ours): what another replica of one of its services needs to join
   * it as the same deployment (the same public URLs, blob storage, secrets and scales).
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  gateways: ServiceHandle[];
  services: Partial<Record<BackendService, ServiceHandle>>;
  /** Every running app, gateways first. */
  all(): ServiceHandle[];
  /** Stops the gateways, then the services (SIGTERM, wait, SIGKILL after the deadline). */
  stop(): Promise<void>;
}

/** PUBLIC_BASE_URL for the apps: as given (to them or to us), else the gateway on this host. */
function publicBaseUrl(gatewayPort: number, env: StartPlatformOptions['env']): string {
  return env?.PUBLIC_BASE_URL || process.env.PUBLIC_BASE_URL || `http://127.0.0.1:${gatewayPort}`;
}

/** MEDIA_PUBLIC_URL for calls and voice: as given (to them or to us), else the voice app on this host. */
/**
 * The voice app's environment from the platform's: as deployed, it holds no master key, only the stream-token
 * key derived from the calls service's SECRETS_KEY, and no blob signing key.
 */
export function voiceEnvOf(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const secretsKey = env.SECRETS_KEY ?? process.env.SECRETS_KEY;
  return {
    ...env,
    SECRETS_KEY: undefined,
    BLOB_SIGNING_KEY: undefined,
    ...(isSecretsKey(secretsKey) && !env.STREAM_TOKEN_KEY
      ? { STREAM_TOKEN_KEY: streamTokenKeyOf(secretsKey!) }
      : {}),
  };
}

export function mediaPublicUrl(voicePort: number, env?: StartPlatformOptions['env']): string {
  return env?.MEDIA_PUBLIC_URL || process.env.MEDIA_PUBLIC_URL || `http://127.0.0.1:${voicePort}`;
}

async function stopAll(handles: ServiceHandle[]): Promise<void> {
  const results = await Promise.allSettled(handles.map((h) => h.stop('SIGTERM')));
  const failed = results.flatMap((r, i) =>
    r.status === 'rejected' ? [`${handles[i].name}: ${String(r.reason)}`] : [],
  );
  if (failed.length) throw new Error(`could not stop ${failed.join('; ')}`);
}

/**
 * Starts the platform from the build output: the services in parallel, then the gateway replicas once
 * every service is ready. If anything fails to start, whatever did start is stopped again.
 */
export async function startPlatform(options: StartPlatformOptions): Promise<Platform> {
  const services = options.services ?? BACKEND_SERVICES;
  const replicas = options.gatewayReplicas ?? 1;
  // The first gateway's port is fixed before anything starts: the services hand out URLs on it.
  const gatewayPorts = [...(options.gatewayPorts ?? [])];
  if (replicas > 0 && gatewayPorts[0] === undefined) gatewayPorts[0] = await freePort();
  // Likewise the voice app's: the calls service hands carriers stream URLs on it (a platform without voice
  // still gets one, so the calls service starts; its streams then have nowhere to go).
  const ports: Partial<Record<BackendService, number>> = { ...options.ports };
  if (services.includes('voice')) ports.voice ??= await freePort();
  // And the sandbox carrier's: calls places Sandbox calls at it.
  if (services.includes('sandbox-carrier')) ports['sandbox-carrier'] ??= await freePort();
  const media = mediaPublicUrl(ports.voice ?? DEFAULT_PORTS.voice, options.env);
  const env: Record<string, string | undefined> = {
    ...(replicas > 0 ? { PUBLIC_BASE_URL: publicBaseUrl(gatewayPorts[0], options.env) } : {}),
    MEDIA_PUBLIC_URL: media,
    // Outside development the voice service boots only with its speech providers named: the platform's own
    // (the sandbox phone speaks offline speech), unless the caller names others.
    STT_PROVIDER: 'offline',
    TTS_PROVIDER: 'offline',
    // The platform's account at the sandbox carrier: the same for calls and the simulator, fresh per platform.
    SANDBOX_CARRIER_URL: `http://127.0.0.1:${ports['sandbox-carrier'] ?? DEFAULT_PORTS['sandbox-carrier']}`,
    SANDBOX_AUTH_TOKEN: process.env.SANDBOX_AUTH_TOKEN || randomBytes(24).toString('hex'),
    ...options.env,
    DATABASE_URL: options.databaseUrl,
    NATS_URL: options.natsUrl,
    NATS_SUBJECT_PREFIX: options.subjectPrefix ?? '',
  };
  const voiceEnv = voiceEnvOf(env);
  const started: ServiceHandle[] = [];
  // One app failing cancels the starts still waiting, instead of letting them run to their timeout.
  const cancel = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
  let firstError: unknown;
  const launch = async (name: PlatformApp, label: string, port: number | undefined) => {
    try {
      const handle = await startService(name, {
        env: { ...(name === 'voice' ? voiceEnv : env), ...options.appEnv?.[name] },
        port: port ?? (await freePort()),
        label,
        nodeArgs: options.nodeArgs?.[name],
        logFile: options.logDir ? join(options.logDir, `${label}.log`) : undefined,
        prefixLogs: options.prefixLogs,
        ownProcessGroup: options.ownProcessGroup,
        readyTimeoutMs: options.readyTimeoutMs,
        readyPath: options.readyPath,
        stopTimeoutMs: options.stopTimeoutMs,
        signal,
        rootDir: options.rootDir,
      });
      started.push(handle);
      return handle;
    } catch (err) {
      firstError ??= err;
      cancel.abort();
      throw err;
    }
  };
  const launchAll = async (apps: [PlatformApp, string, number | undefined][]) => {
    const results = await Promise.allSettled(apps.map(([name, label, port]) => launch(name, label, port)));
    if (firstError) throw firstError;
    return results.map((r) => (r as PromiseFulfilledResult<ServiceHandle>).value);
  };

  try {
    const serviceHandles = await launchAll(
      services.flatMap((s) =>
        Array.from(
          { length: Math.max(1, options.replicas?.[s] ?? 1) },
          (_, i): [PlatformApp, string, number | undefined] =>
            i === 0 ? [s, s, ports[s]] : [s, `${s}-${i + 1}`, undefined],
        ),
      ),
    );
    const gateways = await launchAll(
      Array.from({ length: replicas }, (_, i) => [
        'gateway',
        replicas > 1 ? `gateway-${i + 1}` : 'gateway',
        gatewayPorts[i],
      ]),
    );
    const byName = Object.fromEntries(
      services.map((s) => [s, serviceHandles.find((h) => h.name === s)]),
    ) as Partial<Record<BackendService, ServiceHandle>>;
    let stopping: Promise<void> | undefined;
    return {
      get gatewayUrl(): string {
        if (!gateways[0]) throw new Error('no gateway was started (gatewayReplicas: 0)');
        return gateways[0].url;
      },
      mediaPublicUrl: env.MEDIA_PUBLIC_URL ?? media,
      env,
      gateways,
      services: byName,
      all: () => [...gateways, ...serviceHandles],
      stop() {
        // Gateways first, so that no new work reaches the services while they drain; then voice, whose
        // live calls report their end to the calls service, then the rest.
        const voice = serviceHandles.filter((h) => h.name === 'voice');
        const others = serviceHandles.filter((h) => h.name !== 'voice');
        stopping ??= stopAll(gateways)
          .finally(() => stopAll(voice))
          .finally(() => stopAll(others));
        return stopping;
      },
    };
  } catch (err) {
    await stopAll(started).catch(() => undefined);
    throw err;
  }
}
