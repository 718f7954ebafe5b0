// What the campaign benchmarks share: a platform of their own on fresh infrastructure, with rate limits lifted
// and sandbox calls on fast timings, the gateway's JSON envelope read, and the dispatcher's outcome counters.
import { randomBytes } from 'node:crypto';
import { freePort, OFFLINE_SPEECH, Platform, startPlatform, StartPlatformOptions } from '@vap/testing';
import { BenchInfrastructure, openBenchInfrastructure } from '../support/bench-infrastructure';
import { percentile } from '../support/percentiles';

export interface CampaignBenchPlatform {
  infra: BenchInfrastructure;
  platform: Platform;
  /** Headers of the operator API (partners are created through it). */
  adminHeaders: Record<string, string>;
  close(): Promise<void>;
}

export interface CampaignBenchOptions {
  databaseLabel: string;
  /** SANDBOX_STEP_MS of the platform. */
  stepMs: string;
  /** Writes a V8 CPU profile of the gateway, calls, campaigns and webhooks services there. */
  cpuProfileDir?: string;
  /** Replicas of the services (default one each). */
  replicas?: StartPlatformOptions['replicas'];
}

export async function startCampaignBenchPlatform(
  options: CampaignBenchOptions,
): Promise<CampaignBenchPlatform> {
  const infra = await openBenchInfrastructure(options.databaseLabel);
  const adminToken = randomBytes(16).toString('hex');
  const gatewayPort = await freePort();
  const profiled = options.cpuProfileDir;
  const platform = await startPlatform({
    databaseUrl: infra.db.url,
    natsUrl: infra.nats.url,
    subjectPrefix: infra.prefix,
    gatewayPorts: [gatewayPort],
    replicas: options.replicas,
    logDir: process.env.BENCH_LOG_DIR,
    ...(profiled
      ? {
          nodeArgs: Object.fromEntries(
            (['gateway', 'calls', 'campaigns', 'webhooks'] as const).map((app) => [
              app,
              ['--cpu-prof', `--cpu-prof-dir=${profiled}`],
            ]),
          ),
        }
      : {}),
    env: {
      ADMIN_API_TOKEN: adminToken,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ...OFFLINE_SPEECH,
      RATE_LIMIT_GENERAL_PER_MINUTE: '1000000000',
      RATE_LIMIT_CALLS_PER_MINUTE: '1000000000',
      CALLBACK_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
      SANDBOX_STEP_MS: options.stepMs,
    },
  });
  return {
    infra,
    platform,
    adminHeaders: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    async close() {
      await platform.stop();
      await infra.close();
    },
  };
}

/** The `data` of a gateway answer; any other status throws with the answer's error. */
export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  const body = (await res.json()) as { data: T; error?: unknown };
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${JSON.stringify(body.error)}`);
  return body.data;
}

/** A service's /metrics exposition. */
export async function metricsOf(platform: Platform, service: 'calls' | 'campaigns'): Promise<string> {
  return (await fetch(`${platform.services[service]!.url}/metrics`)).text();
}

/** How the dispatcher's asks ended, from the campaigns service's metrics (a deferral waits a second). */
export function dispatchOutcomes(campaignsMetrics: string): string {
  return campaignsMetrics
    .split('\n')
    .filter((line) => line.startsWith('vap_campaign_dispatches_total{'))
    .map((line) => line.replace('vap_campaign_dispatches_total', ''))
    .join(', ');
}

/** An attempt's times as the campaigns service stored them. */
export interface AttemptTimes {
  call_id: string | null;
  /** The claim. */
  created_at: Date;
  /** The settlement of its call's release. */
  ended_at: Date | null;
}

/**
 * Where a release -> dial gap goes: the release reaching the campaigns service and settled there, then the
 * claim of the next contact until the calls service admitted its call (database times against the commit
 * times of the calls' events, by call id).
 */
export function printGapStages(
  attempts: AttemptTimes[],
  releaseAt: Map<string, number>,
  dialAt: Map<string, number>,
): void {
  const stage = (pick: (a: AttemptTimes) => number) =>
    attempts
      .map(pick)
      .filter((x) => Number.isFinite(x))
      .sort((a, b) => a - b);
  const settle = stage((a) => (a.ended_at?.getTime() ?? NaN) - (releaseAt.get(a.call_id ?? '') ?? NaN));
  const place = stage((a) => (dialAt.get(a.call_id ?? '') ?? NaN) - a.created_at.getTime());
  console.table([
    {
      stage: 'release event -> campaigns settled it',
      'p50 ms': percentile(settle, 50),
      'p99 ms': percentile(settle, 99),
    },
    {
      stage: 'claim -> call admitted by calls',
      'p50 ms': percentile(place, 50),
      'p99 ms': percentile(place, 99),
    },
  ]);
}
