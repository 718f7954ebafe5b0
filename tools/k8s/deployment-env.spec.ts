import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { LONGEST_CALL_SECS } from '@vap/messages';
import { natsAccountsConfig, natsPasswordVariable, NATS_SERVICES } from '@vap/messaging';
import { streamTokenKeyOf } from '@vap/secrets';
import { createRenderer, findOverlays, loadCompose, parseYamlDocuments } from './validate-manifests';

/**
 * The shipped deployments must boot as written: every app container of the k8s overlays and of the
 * compose file gets its environment resolved the way Kubernetes or Compose would (image ENV, ConfigMaps,
 * Secrets, variable interpolation), with well-formed values in place of the secrets that are not in the
 * repository, and the built app validates it with its own boot-time validation (`--check-config`).
 * Beyond that: local blobs must sit on a volume the apps share, carriers must not be handed a loopback
 * callback URL, and the sandbox carrier must call back the gateway and stream to voice inside the deployment,
 * with the account the calls service places Sandbox calls with.
 */

const ROOT = resolve(__dirname, '..', '..');
const APP_PORTS: Record<string, string> = {
  gateway: '3000',
  agents: '3001',
  calls: '3002',
  campaigns: '3003',
  webhooks: '3004',
  voice: '3005',
  'sandbox-carrier': '3006',
};
/** The carrier simulator: no NATS, no schema. */
const SANDBOX_CARRIER = 'sandbox-carrier';
/** The account both sides default to (SANDBOX_ACCOUNT_SID). */
const DEFAULT_SANDBOX_ACCOUNT = 'ACsandbox';
/**
 * The apps whose blobs must be shared: agents, calls and voice (recordings) store them, the gateway serves
 * signed URLs.
 */
const BLOB_APPS = ['gateway', 'agents', 'calls', 'voice'];
/** WORKDIR of the image, against which a relative BLOB_STORAGE_DIR resolves. */
const IMAGE_WORKDIR = '/app';

const secretsKey = randomBytes(32).toString('base64');
/** What the operator creates out of band (prod), as well-formed values. */
const SECRET_VALUES: Record<string, string> = {
  DATABASE_URL: 'postgres://vap:s3cret@db.internal.example:5432/voice_agent_platform?sslmode=verify-full',
  ADMIN_API_TOKEN: randomBytes(24).toString('hex'),
  SECRETS_KEY: secretsKey,
  STREAM_TOKEN_KEY: streamTokenKeyOf(secretsKey),
  BLOB_SIGNING_KEY: randomBytes(32).toString('hex'),
  SANDBOX_AUTH_TOKEN: randomBytes(24).toString('hex'),
  ...Object.fromEntries(
    NATS_SERVICES.map((s) => [natsPasswordVariable(s), `n${randomBytes(24).toString('hex')}`]),
  ),
};

jest.setTimeout(120_000);

type Env = Record<string, string>;

interface Checked {
  where: string;
  app: string;
  args: string[];
  env: Env;
}

function mainPath(app: string): string {
  return join(ROOT, 'dist', 'apps', app, 'apps', app, 'src', 'main.js');
}

/** The runtime stage's ENV of docker/Dockerfile for one app (its build arguments substituted). */
function imageEnv(app: string): Env {
  const text = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stages = text.split(/^FROM /m);
  const runtime = stages[stages.length - 1];
  const env: Env = {};
  for (const line of runtime.split('\n').filter((l) => /^ENV\s/.test(l))) {
    for (const [, name, value] of line.matchAll(/([A-Z_][A-Z0-9_]*)=(\S*)/g)) {
      env[name] = value.replace(/\$\{APP\}/g, app).replace(/\$\{PORT\}/g, APP_PORTS[app]);
    }
  }
  return env;
}

/** The app an image or command runs (`vap-calls`, `registry/.../calls:1.2`, `dist/apps/calls/...`). */
function appOf(image: string, command: string[] = []): string | undefined {
  const fromCommand = command.map((c) => /dist\/apps\/([a-z-]+)\//.exec(c)?.[1]).find(Boolean);
  const name = image.split('/').pop()!.split(':')[0].replace(/^vap-/, '');
  return fromCommand ?? (APP_PORTS[name] ? name : undefined);
}

/** Arguments after the entry point (`--migrate-only`); none for the image's default command. */
function argsOf(command: string[] = []): string[] {
  const main = command.findIndex((c) => c.endsWith('.js'));
  return main < 0 ? [] : command.slice(main + 1);
}

const checked = new Map<string, { ok: boolean; output: string }>();

/** Runs the built app's own validation on the environment (once per distinct app, arguments and environment). */
function checkConfig({ app, args, env }: Checked, cwd: string): { ok: boolean; output: string } {
  const key = JSON.stringify([app, args, Object.entries(env).sort()]);
  if (!checked.has(key)) checked.set(key, runCheck(app, args, env, cwd));
  return checked.get(key)!;
}

function runCheck(app: string, args: string[], env: Env, cwd: string): { ok: boolean; output: string } {
  const run = spawnSync(process.execPath, [mainPath(app), ...args, '--check-config'], {
    cwd,
    // Node's compile cache (in the throwaway directory) spares the later runs most of loading the apps' code,
    // which is the bulk of each run. It is Node's setting, no app's: the environment the apps check is `env`.
    env: { PATH: process.env.PATH ?? '', NODE_COMPILE_CACHE: join(cwd, 'compile-cache'), ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}`.trim() };
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host) || host === '0.0.0.0';
}

/** The callback base the calls service would hand to carriers. */
function callbackBase(env: Env): string {
  return env.CALLBACK_BASE_URL || env.PUBLIC_BASE_URL || '';
}

/** Where the sandbox carrier's simulated phone really opens media streams. */
function sandboxMediaBase(env: Env): string {
  return env.SANDBOX_MEDIA_URL || env.MEDIA_PUBLIC_URL || '';
}

/** Where the sandbox carrier's callbacks and answer fetches really go. */
function sandboxCallbackBase(env: Env): string {
  return env.SANDBOX_CALLBACK_URL || callbackBase(env);
}

/**
 * The sandbox carrier's container and the calls service's agree: calls places Sandbox calls at its
 * Service or container, with the account it hosts, and it reaches the gateway and voice by their
 * in-deployment names.
 */
function expectSandboxWiring(calls: Checked, sandbox: Checked): void {
  expect({ where: calls.where, url: calls.env.SANDBOX_CARRIER_URL }).toEqual({
    where: calls.where,
    url: `http://${SANDBOX_CARRIER}:${APP_PORTS[SANDBOX_CARRIER]}`,
  });
  expect({
    sid: calls.env.SANDBOX_ACCOUNT_SID ?? DEFAULT_SANDBOX_ACCOUNT,
    tokenSet: !!calls.env.SANDBOX_AUTH_TOKEN,
    sameToken: calls.env.SANDBOX_AUTH_TOKEN === sandbox.env.SANDBOX_AUTH_TOKEN,
  }).toEqual({
    sid: sandbox.env.SANDBOX_ACCOUNT_SID ?? DEFAULT_SANDBOX_ACCOUNT,
    tokenSet: true,
    sameToken: true,
  });
  expect({ where: sandbox.where, media: new URL(sandboxMediaBase(sandbox.env)).host }).toEqual({
    where: sandbox.where,
    // The Service's name, short or fully qualified, on its port.
    media: expect.stringMatching(/^voice(\.[a-z0-9.-]+)?:3005$/),
  });
  expect({ where: sandbox.where, callbacks: new URL(sandboxCallbackBase(sandbox.env)).host }).toEqual({
    where: sandbox.where,
    callbacks: expect.stringMatching(/^gateway(\.[a-z0-9.-]+)?:3000$/),
  });
  // It accepts only URLs under the callback base calls hands out, and signs them for it.
  expect(callbackBase(sandbox.env)).toBe(callbackBase(calls.env));
  expect(sandbox.env.MEDIA_PUBLIC_URL).toBe(calls.env.MEDIA_PUBLIC_URL);
}

function blobDir(env: Env): string | undefined {
  if ((env.BLOB_STORAGE_DRIVER ?? 'local') !== 'local') return undefined;
  return posix.resolve(IMAGE_WORKDIR, env.BLOB_STORAGE_DIR ?? '.data/blobs');
}

/**
 * What a voice replica's stop takes at most, in seconds: its drain (DRAIN_DEADLINE_MS, set in the
 * deployment, so the grace period beside it can be checked), then the usual shutdown (SHUTDOWN_TIMEOUT_MS);
 * and the drain must let the longest call end by itself, so a rollout or a scale-down cuts none.
 */
function voiceStopSeconds(where: string, env: Env): number {
  const drainMs = Number(env.DRAIN_DEADLINE_MS);
  expect({ where, drainCoversLongestCall: drainMs >= LONGEST_CALL_SECS * 1000 }).toEqual({
    where,
    drainCoversLongestCall: true,
  });
  return (drainMs + Number(env.SHUTDOWN_TIMEOUT_MS ?? 15000)) / 1000;
}

const under = (dir: string, mount: string) =>
  dir === mount || dir.startsWith(`${mount.replace(/\/+$/, '')}/`);

let cwd: string;
beforeAll(() => {
  for (const app of Object.keys(APP_PORTS)) {
    if (!existsSync(mainPath(app))) throw new Error(`${mainPath(app)} is missing: run the build first`);
  }
  // No developer .env files: only the deployment's environment counts.
  cwd = mkdtempSync(join(tmpdir(), 'vap-deploy-env-'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type K8sObject = any;

describe.each(findOverlays(join(ROOT, 'k8s')).map((dir) => [dir.split(/[\\/]/).pop()!, dir]))(
  'k8s overlay %s',
  (overlay, dir) => {
    let objects: K8sObject[];
    let containers: (Checked & { container: K8sObject; pod: K8sObject })[];

    beforeAll(() => {
      const problems: string[] = [];
      objects = parseYamlDocuments(createRenderer().render(dir), overlay, problems);
      expect(problems).toEqual([]);
      const find = (kind: string, name: string) =>
        objects.find((o) => o.kind === kind && o.metadata?.name === name);
      const secretValue = (name: string, key: string): string | undefined => {
        const secret = find('Secret', name);
        if (!secret) return SECRET_VALUES[key];
        if (secret.stringData?.[key] !== undefined) return secret.stringData[key];
        return secret.data?.[key] !== undefined
          ? Buffer.from(secret.data[key], 'base64').toString('utf8')
          : undefined;
      };
      containers = objects
        .filter((o) => ['Deployment', 'Job'].includes(o.kind))
        .flatMap((o) => {
          const pod = o.spec.template.spec;
          return [...(pod.initContainers ?? []), ...pod.containers].map((c: K8sObject) => {
            const app = appOf(c.image, c.command);
            if (!app) throw new Error(`${o.kind}/${o.metadata.name}: which app does ${c.image} run?`);
            const env: Env = { ...imageEnv(app) };
            for (const from of c.envFrom ?? []) {
              if (from.configMapRef) Object.assign(env, find('ConfigMap', from.configMapRef.name)?.data);
            }
            for (const e of c.env ?? []) {
              const ref = e.valueFrom?.secretKeyRef;
              const value = ref ? secretValue(ref.name, ref.key) : e.value;
              if (value === undefined && !ref?.optional) {
                throw new Error(`${o.metadata.name}/${c.name}: ${e.name} has no value`);
              }
              if (value !== undefined) env[e.name] = value;
            }
            return {
              where: `${o.kind}/${o.metadata.name} container ${c.name}`,
              app,
              args: argsOf(c.command),
              env,
              container: c,
              pod,
            };
          });
        });
    });

    it("every container's environment passes its app's boot-time validation", () => {
      expect(containers.length).toBeGreaterThanOrEqual(10);
      const failures = containers.flatMap((c) => {
        const result = checkConfig(c, cwd);
        return result.ok ? [] : [`${c.where}: ${result.output}`];
      });
      expect(failures).toEqual([]);
    });

    it('keeps local blobs on one volume that the gateway, agents, calls and voice share', () => {
      const claims = new Set<string>();
      for (const c of containers.filter((c) => BLOB_APPS.includes(c.app) && !c.args.length)) {
        const dir = blobDir(c.env);
        if (!dir) continue; // S3
        const mount = (c.container.volumeMounts ?? []).find(
          (m: K8sObject) => under(dir, m.mountPath) && !m.readOnly,
        );
        expect({ where: c.where, dir, mounted: !!mount }).toEqual({ where: c.where, dir, mounted: true });
        const volume = c.pod.volumes.find((v: K8sObject) => v.name === mount.name);
        expect({ where: c.where, claim: volume.persistentVolumeClaim?.claimName }).toEqual({
          where: c.where,
          claim: expect.any(String),
        });
        claims.add(volume.persistentVolumeClaim.claimName);
      }
      expect(claims.size).toBeLessThanOrEqual(1);
    });

    it('connects every app to NATS as its own user, with the password the NATS accounts read', () => {
      const apps = containers.filter((c) => !c.args.length && c.app !== SANDBOX_CARRIER);
      expect(apps.map((c) => c.app).sort()).toEqual([...NATS_SERVICES].sort());
      for (const c of containers.filter((c) => c.app === SANDBOX_CARRIER)) {
        expect({ where: c.where, nats: c.env.NATS_PASSWORD }).toEqual({ where: c.where, nats: undefined });
      }
      for (const c of apps) {
        const ref = c.container.env.find((e: K8sObject) => e.name === 'NATS_PASSWORD')?.valueFrom
          ?.secretKeyRef;
        expect({ app: c.app, ref }).toEqual({
          app: c.app,
          ref: { name: 'vap-secrets', key: natsPasswordVariable(c.app as (typeof NATS_SERVICES)[number]) },
        });
        expect(c.env.NATS_USER).toBeUndefined(); // the app's own name
      }
      const accounts = objects.find(
        (o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('vap-nats-accounts'),
      );
      expect(accounts.data['accounts.conf']).toBe(natsAccountsConfig());
      const nats = objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'nats');
      if (!nats) return; // prod: the operator's NATS includes the accounts
      const server = nats.spec.template.spec.containers[0];
      expect(server.command.join(' ')).toContain('--config /etc/nats/accounts.conf');
      const mounted = nats.spec.template.spec.volumes.find((v: K8sObject) => v.configMap);
      expect(mounted.configMap.name).toBe(accounts.metadata.name);
      expect(server.volumeMounts).toContainEqual(
        expect.objectContaining({ name: mounted.name, mountPath: '/etc/nats' }),
      );
      expect(server.env.map((e: K8sObject) => [e.name, e.valueFrom.secretKeyRef.key]).sort()).toEqual(
        NATS_SERVICES.map((s) => [natsPasswordVariable(s), natsPasswordVariable(s)]).sort(),
      );
    });

    it("gives voice the stream-token key derived from the calls service's SECRETS_KEY, and no master or signing key", () => {
      const voice = containers.filter((c) => c.app === 'voice');
      const calls = containers.find((c) => c.app === 'calls' && !c.args.length)!;
      expect(voice.length).toBeGreaterThan(0);
      for (const c of voice) {
        expect({
          where: c.where,
          SECRETS_KEY: c.env.SECRETS_KEY,
          BLOB_SIGNING_KEY: c.env.BLOB_SIGNING_KEY,
        }).toEqual({
          where: c.where,
          SECRETS_KEY: undefined,
          BLOB_SIGNING_KEY: undefined,
        });
        expect(c.env.STREAM_TOKEN_KEY).toBe(streamTokenKeyOf(calls.env.SECRETS_KEY));
      }
    });

    it('hands carriers a callback URL that is not a loopback address', () => {
      const calls = containers.filter((c) => c.app === 'calls' && !c.args.length);
      expect(calls.length).toBeGreaterThan(0);
      for (const c of calls) {
        const base = callbackBase(c.env);
        expect({ where: c.where, base, loopback: isLoopback(base) }).toEqual({
          where: c.where,
          base,
          loopback: false,
        });
      }
    });

    it('lets a voice pod drain its longest call before Kubernetes kills it', () => {
      const voice = containers.filter((c) => c.app === 'voice');
      expect(voice.length).toBeGreaterThan(0);
      for (const c of voice) {
        const preStop = c.container.lifecycle?.preStop?.exec?.command ?? [];
        const preStopSeconds = preStop[0] === 'sleep' ? Number(preStop[1]) : 0;
        const needed = preStopSeconds + voiceStopSeconds(c.where, c.env);
        expect({ where: c.where, grace: c.pod.terminationGracePeriodSeconds }).toEqual({
          where: c.where,
          grace: expect.any(Number),
        });
        expect({ where: c.where, covers: c.pod.terminationGracePeriodSeconds >= needed }).toEqual({
          where: c.where,
          covers: true,
        });
      }
    });

    it('runs one sandbox carrier that calls reaches, which calls back the gateway and streams to the voice Service', () => {
      const sandbox = containers.filter((c) => c.app === SANDBOX_CARRIER);
      expect(sandbox).toHaveLength(1);
      for (const c of containers.filter((c) => c.app === 'calls' && !c.args.length)) {
        expectSandboxWiring(c, sandbox[0]);
      }
      // Settings the calls service no longer has.
      for (const c of containers.filter((c) => c.app === 'calls')) {
        expect({ where: c.where, SANDBOX_MEDIA_URL: c.env.SANDBOX_MEDIA_URL }).toEqual({
          where: c.where,
          SANDBOX_MEDIA_URL: undefined,
        });
      }
    });
  },
);

describe('docker/compose.yml', () => {
  const file = join(ROOT, 'docker', 'compose.yml');
  // The secrets docker/.env holds (compose refuses to start without them).
  const shellEnv = {
    ADMIN_API_TOKEN: SECRET_VALUES.ADMIN_API_TOKEN,
    SECRETS_KEY: SECRET_VALUES.SECRETS_KEY,
    STREAM_TOKEN_KEY: SECRET_VALUES.STREAM_TOKEN_KEY,
    BLOB_SIGNING_KEY: SECRET_VALUES.BLOB_SIGNING_KEY,
    SANDBOX_AUTH_TOKEN: SECRET_VALUES.SANDBOX_AUTH_TOKEN,
    ...Object.fromEntries(
      NATS_SERVICES.map((s) => [natsPasswordVariable(s), SECRET_VALUES[natsPasswordVariable(s)]]),
    ),
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let doc: any;
  let services: (Checked & { service: K8sObject })[];

  beforeAll(() => {
    const loaded = loadCompose(file, shellEnv);
    expect(loaded.problems).toEqual([]);
    // Nothing else is required, and with these set nothing is missing.
    expect(loaded.missing).toEqual([]);
    doc = loaded.doc;
    services = Object.entries(doc.services)
      .filter(([, s]: [string, K8sObject]) => s.build?.args?.APP)
      .map(([name, s]: [string, K8sObject]) => {
        const app: string = s.build.args.APP;
        const environment = Array.isArray(s.environment)
          ? Object.fromEntries(s.environment.map((kv: string) => kv.split(/=(.*)/s).slice(0, 2)))
          : (s.environment ?? {});
        return {
          where: `service ${name}`,
          app,
          args: argsOf(s.command),
          env: { ...imageEnv(app), ...environment },
          service: s,
        };
      });
  });

  it('without the secrets it refuses to start instead of falling back to development values', () => {
    const { missing, doc: bare } = loadCompose(file, {});
    expect(missing.sort()).toEqual(
      [
        'ADMIN_API_TOKEN',
        'BLOB_SIGNING_KEY',
        'SANDBOX_AUTH_TOKEN',
        'SECRETS_KEY',
        'STREAM_TOKEN_KEY',
        ...NATS_SERVICES.map((s) => natsPasswordVariable(s)),
      ].sort(),
    );
    expect(JSON.stringify(bare)).not.toMatch(/dev-admin-token/);
  });

  it("every app service's environment passes its app's boot-time validation", () => {
    expect(services.length).toBe(12);
    const failures = services.flatMap((s) => {
      const result = checkConfig(s, cwd);
      return result.ok ? [] : [`${s.where}: ${result.output}`];
    });
    expect(failures).toEqual([]);
  });

  it('keeps local blobs on one named volume that the gateway, agents, calls and voice share', () => {
    const volumes = new Set<string>();
    for (const s of services.filter((s) => BLOB_APPS.includes(s.app) && !s.args.length)) {
      const dir = blobDir(s.env);
      if (!dir) continue;
      const mount = (s.service.volumes ?? [])
        .map((v: string | K8sObject) =>
          typeof v === 'string'
            ? { source: v.split(':')[0], target: v.split(':')[1], ro: /:ro$/.test(v) }
            : v,
        )
        .find((v: K8sObject) => under(dir, v.target) && !v.ro && !v.read_only);
      expect({ where: s.where, dir, volume: mount?.source }).toEqual({
        where: s.where,
        dir,
        volume: expect.any(String),
      });
      expect(Object.keys(doc.volumes ?? {})).toContain(mount.source);
      volumes.add(mount.source);
    }
    expect(volumes.size).toBeLessThanOrEqual(1);
  });

  it('runs NATS with the generated accounts, and every app as its own user with the password NATS reads', () => {
    const nats = doc.services.nats;
    expect(nats.command).toEqual(['nats-server', '-c', '/etc/nats/nats-server.conf']);
    expect(nats.volumes).toContain('./nats:/etc/nats:ro');
    expect(readFileSync(join(ROOT, 'docker', 'nats', 'accounts.conf'), 'utf8')).toBe(natsAccountsConfig());
    expect(readFileSync(join(ROOT, 'docker', 'nats', 'nats-server.conf'), 'utf8')).toMatch(
      /^include \.\/accounts\.conf$/m,
    );
    const apps = services.filter((s) => !s.args.length && s.app !== SANDBOX_CARRIER);
    expect(apps.map((s) => s.app).sort()).toEqual([...NATS_SERVICES].sort());
    expect(services.find((s) => s.app === SANDBOX_CARRIER)!.env.NATS_PASSWORD).toBeUndefined();
    for (const s of apps) {
      const variable = natsPasswordVariable(s.app as (typeof NATS_SERVICES)[number]);
      expect({ app: s.app, password: s.env.NATS_PASSWORD }).toEqual({
        app: s.app,
        password: nats.environment[variable],
      });
    }
  });

  it("gives voice the stream-token key derived from calls' SECRETS_KEY, and no master or signing key", () => {
    const voice = services.find((s) => s.app === 'voice')!;
    const calls = services.find((s) => s.app === 'calls' && !s.args.length)!;
    expect(voice.env.SECRETS_KEY).toBeUndefined();
    expect(voice.env.BLOB_SIGNING_KEY).toBeUndefined();
    expect(voice.env.STREAM_TOKEN_KEY).toBe(streamTokenKeyOf(calls.env.SECRETS_KEY));
  });

  it('hands carriers a callback URL that is not a loopback address', () => {
    const calls = services.filter((s) => s.app === 'calls' && !s.args.length);
    expect(calls).toHaveLength(1);
    expect(isLoopback(callbackBase(calls[0].env))).toBe(false);
  });

  it('lets the voice container drain its longest call before Compose kills it', () => {
    const voice = services.filter((s) => s.app === 'voice');
    expect(voice).toHaveLength(1);
    const grace = /^(\d+)s$/.exec(String(voice[0].service.stop_grace_period));
    expect(grace).not.toBeNull();
    expect(Number(grace![1])).toBeGreaterThanOrEqual(voiceStopSeconds(voice[0].where, voice[0].env));
  });

  it('runs a sandbox carrier that calls reaches, which calls back the gateway and streams to the voice service', () => {
    const calls = services.filter((s) => s.app === 'calls' && !s.args.length);
    const sandbox = services.filter((s) => s.app === SANDBOX_CARRIER);
    expect(calls).toHaveLength(1);
    expect(sandbox).toHaveLength(1);
    expectSandboxWiring(calls[0], sandbox[0]);
    expect(sandboxMediaBase(sandbox[0].env)).toBe(`http://voice:${APP_PORTS.voice}`);
    expect(calls[0].env.SANDBOX_MEDIA_URL).toBeUndefined();
    // Carriers on the host keep the published address.
    expect(calls[0].env.MEDIA_PUBLIC_URL).toBe('http://127.0.0.1:3005');
  });
});
