import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@vap/messages';
import { BACKEND_SERVICES, BackendService, Env, PlatformApp, platformEnvOf } from './platform-env';
import { freePort } from './ports';
import { ServiceHandle, startService } from './service';

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
   * Environment for every app, on top of ours (which every app inherits unchanged, but for the settings
   * PLATFORM_OWNED_SETTINGS lists). PUBLIC_BASE_URL, the gateway's public base that callback, recording and
   * upload URLs derive from, defaults to the first gateway started here; MEDIA_PUBLIC_URL, the media plane's
   * base that stream URLs derive from (for calls and voice), to the voice app started here
   * (PLATFORM_DEFAULT_SETTINGS). The speech providers are the apps' own defaults (offline in development only):
   * a launcher outside development names them here or in its environment.
   */
  env?: Env;
  /** Environment of one app on top of `env` (e.g. each app's own NATS_PASSWORD). */
  appEnv?: Partial<Record<PlatformApp, Env>>;
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
  readonly env: Readonly<Env>;
  gateways: ServiceHandle[];
  services: Partial<Record<BackendService, ServiceHandle>>;
  /** Every running app, gateways first. */
  all(): ServiceHandle[];
  /** Stops the gateways, then the services (SIGTERM, wait, SIGKILL after the deadline). */
  stop(): Promise<void>;
}

async function stopAll(handles: ServiceHandle[]): Promise<void> {
  const results = await Promise.allSettled(handles.map((h) => h.stop('SIGTERM')));
  const failed = results.flatMap((r, i) =>
    r.status === 'rejected' ? [`${handles[i].name}: ${String(r.reason)}`] : [],
  );
  if (failed.length) throw new Error(`could not stop ${failed.join('; ')}`);
}

/**
 * Starts the platform from the build output: every app at once, returning when all are ready. If anything fails
 * to start, whatever did start is stopped again.
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
  const platformEnv = platformEnvOf(
    {
      databaseUrl: options.databaseUrl,
      natsUrl: options.natsUrl,
      subjectPrefix: options.subjectPrefix,
      env: options.env,
      appEnv: options.appEnv,
      gatewayPort: replicas > 0 ? gatewayPorts[0] : undefined,
      voicePort: ports.voice ?? DEFAULT_PORTS.voice,
      sandboxCarrierPort: ports['sandbox-carrier'] ?? DEFAULT_PORTS['sandbox-carrier'],
      sandboxAuthToken: randomBytes(24).toString('hex'),
    },
    process.env,
  );
  const env = platformEnv.shared;
  // Each app counts as started once ready, but the gateway's readiness asks every service behind it over NATS
  // (its peers: the messaging services but itself): without one of them, the gateway counts once it is live.
  const gatewayPeersMissing = SERVICE_NAMES.some(
    (name) => name !== 'gateway' && !services.includes(name as BackendService),
  );
  const readyPathOf = (name: PlatformApp) =>
    name === 'gateway' && gatewayPeersMissing ? '/health/live' : '/health/ready';
  const started: ServiceHandle[] = [];
  // One app failing cancels the starts still waiting, instead of letting them run to their timeout.
  const cancel = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
  let firstError: unknown;
  const launch = async (name: PlatformApp, label: string, port: number | undefined) => {
    try {
      const handle = await startService(name, {
        env: platformEnv.of(name),
        port: port ?? (await freePort()),
        label,
        nodeArgs: options.nodeArgs?.[name],
        logFile: options.logDir ? join(options.logDir, `${label}.log`) : undefined,
        prefixLogs: options.prefixLogs,
        ownProcessGroup: options.ownProcessGroup,
        readyTimeoutMs: options.readyTimeoutMs,
        readyPath: readyPathOf(name),
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
    const serviceApps = services.flatMap((s) =>
      Array.from(
        { length: Math.max(1, options.replicas?.[s] ?? 1) },
        (_, i): [PlatformApp, string, number | undefined] =>
          i === 0 ? [s, s, ports[s]] : [s, `${s}-${i + 1}`, undefined],
      ),
    );
    const gatewayApps = Array.from(
      { length: replicas },
      (_, i): [PlatformApp, string, number | undefined] => [
        'gateway',
        replicas > 1 ? `gateway-${i + 1}` : 'gateway',
        gatewayPorts[i],
      ],
    );
    // All at once, as a deployment starts them: the gateways boot while the services do, and count as ready
    // once the services answer their readiness.
    const handles = await launchAll([...serviceApps, ...gatewayApps]);
    const serviceHandles = handles.slice(0, serviceApps.length);
    const gateways = handles.slice(serviceApps.length);
    const byName = Object.fromEntries(
      services.map((s) => [s, serviceHandles.find((h) => h.name === s)]),
    ) as Partial<Record<BackendService, ServiceHandle>>;
    let stopping: Promise<void> | undefined;
    return {
      get gatewayUrl(): string {
        if (!gateways[0]) throw new Error('no gateway was started (gatewayReplicas: 0)');
        return gateways[0].url;
      },
      mediaPublicUrl: env.MEDIA_PUBLIC_URL!,
      env,
      gateways,
      services: byName,
      all: () => [...gateways, ...serviceHandles],
      stop() {
        // The sandbox carrier first: it stands for the world outside, so the calls it ends report their end
        // (to the gateway's callbacks) while the platform still hears them. Then the gateways, so that no new
        // work reaches the services while they drain; then voice, whose live calls report their end to the
        // calls service, then the rest.
        const carrier = serviceHandles.filter((h) => h.name === 'sandbox-carrier');
        const voice = serviceHandles.filter((h) => h.name === 'voice');
        const others = serviceHandles.filter((h) => h.name !== 'voice' && h.name !== 'sandbox-carrier');
        stopping ??= stopAll(carrier)
          .finally(() => stopAll(gateways))
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
