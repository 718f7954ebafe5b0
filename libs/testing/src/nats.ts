import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { eventStreamName, KV_BUCKETS, kvStreamName } from '@vap/messages';
import { connect, NatsConnection } from 'nats';
import { ChildOutput } from './child-output';
import { describeExit, ExitInfo, exitOf, stopChild, trackChild } from './child-registry';
import { canConnect, freePort } from './ports';
import { sleep } from './wait-for';

export interface ResolveNatsOptions {
  /** Folder for a started server's JetStream store (`<dataDir>/nats`) and its log. */
  dataDir: string;
  /** Where NATS_URL and PATH are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** The local server tried first (default 127.0.0.1:4222). */
  probe?: { host: string; port: number };
  /** Folders searched for `nats-server` (default: PATH, then /usr/local/sbin and /usr/sbin). */
  searchPath?: string[];
  /**
   * Start nats-server in its own process group, so that a Ctrl-C in the terminal reaches only us and
   * we stop it after the apps that use it.
   */
  ownProcessGroup?: boolean;
  onNote?: (note: string) => void;
}

export interface ResolvedNats {
  url: string;
  source: 'env' | 'local' | 'spawned';
  /** Stops the server if this call started it; otherwise does nothing. */
  stop(): Promise<void>;
}

export const NO_NATS_SERVER_MESSAGE =
  'No NATS server: set NATS_URL=nats://host:4222, run one on 127.0.0.1:4222, or put a nats-server binary on PATH ' +
  '(apt-get install nats-server, brew install nats-server, or https://github.com/nats-io/nats-server/releases)';

function findExecutable(name: string, dirs: string[]): string | undefined {
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function defaultSearchPath(env: NodeJS.ProcessEnv): string[] {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  // Debian installs nats-server in /usr/sbin, which is not on every user's PATH.
  for (const extra of ['/usr/local/sbin', '/usr/sbin']) if (!dirs.includes(extra)) dirs.push(extra);
  return dirs;
}

/**
 * Picks the NATS server to use: NATS_URL when set; else 127.0.0.1:4222 when it accepts a TCP
 * connection; else a `nats-server` found on PATH, started with JetStream on a free port and its store
 * under `<dataDir>/nats`. Throws a one-line error saying how to get one when there is none.
 */
export async function resolveNats(options: ResolveNatsOptions): Promise<ResolvedNats> {
  const env = options.env ?? process.env;
  const note = options.onNote ?? (() => undefined);
  if (env.NATS_URL) return { url: env.NATS_URL, source: 'env', stop: async () => undefined };

  const probe = options.probe ?? { host: '127.0.0.1', port: 4222 };
  if (await canConnect(probe.host, probe.port)) {
    return { url: `nats://${probe.host}:${probe.port}`, source: 'local', stop: async () => undefined };
  }
  const binary = findExecutable('nats-server', options.searchPath ?? defaultSearchPath(env));
  if (!binary) throw new Error(NO_NATS_SERVER_MESSAGE);
  note(`nothing answers on ${probe.host}:${probe.port}; starting ${binary}`);
  return startNatsServer(binary, { dataDir: options.dataDir, ownProcessGroup: options.ownProcessGroup });
}

export interface SpawnNatsOptions {
  /** Holds the JetStream store (`<dataDir>/nats`) and the server's log. */
  dataDir: string;
  /** A configuration file for the server (accounts, permissions); address, port and JetStream come from flags. */
  configFile?: string;
  /** The server's environment on top of ours (variables its configuration reads). */
  env?: Record<string, string>;
  ownProcessGroup?: boolean;
}

/** A nats-server of our own, with JetStream, on a free port of 127.0.0.1; throws when there is no binary. */
export async function spawnNatsServer(options: SpawnNatsOptions): Promise<ResolvedNats> {
  const binary = findExecutable('nats-server', defaultSearchPath(process.env));
  if (!binary) throw new Error(NO_NATS_SERVER_MESSAGE);
  return startNatsServer(binary, options);
}

async function startNatsServer(binary: string, options: SpawnNatsOptions): Promise<ResolvedNats> {
  const { dataDir } = options;
  const storeDir = join(dataDir, 'nats');
  mkdirSync(storeDir, { recursive: true });
  const port = await freePort();
  const output = new ChildOutput({ logFile: join(dataDir, 'nats-server.log') });
  const config = options.configFile ? ['-c', options.configFile] : [];
  const child = spawn(binary, [...config, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup ?? false,
    env: { ...process.env, ...options.env },
  });
  trackChild(child);
  output.attach(child.stdout);
  output.attach(child.stderr);
  let failure: string | undefined;
  child.once('error', (err) => (failure = `could not be started: ${err.message}`));
  const exited = exitOf(child).then(async (info: ExitInfo) => {
    failure ??= describeExit(info);
    await output.close();
    return info;
  });

  const deadline = Date.now() + 15_000;
  while (!(await canConnect('127.0.0.1', port, 500))) {
    if (!failure && Date.now() > deadline) {
      failure = 'did not accept connections within 15 s';
      await stopChild(child, exited, 'SIGTERM', 5000);
    }
    if (failure) throw new Error(`nats-server ${failure}\n${output.describe()}`);
    await sleep(100);
  }
  let stopping: Promise<void> | undefined;
  return {
    url: `nats://127.0.0.1:${port}`,
    source: 'spawned',
    stop() {
      stopping ??= stopChild(child, exited, 'SIGTERM', 10_000).then(() => undefined);
      return stopping;
    },
  };
}

async function withConnection<T>(url: string, work: (nc: NatsConnection) => Promise<T>): Promise<T> {
  const nc = await connect({ servers: url, name: 'vap-testing', timeout: 5000, maxReconnectAttempts: 0 });
  try {
    return await work(nc);
  } finally {
    await nc.close();
  }
}

/** Fails with a clear message when the server at `url` does not have JetStream enabled. */
export async function assertJetStream(url: string): Promise<void> {
  await withConnection(url, async (nc) => {
    try {
      await nc.jetstreamManager();
    } catch (err) {
      throw new Error(`NATS at ${url} has no JetStream (${(err as Error).message}); start it with -js`);
    }
  });
}

export interface DeletedJetStreamResources {
  streams: string[];
  consumers: string[];
}

export interface DeleteJetStreamOptions {
  /** Key-value buckets of the caller's own beyond the platform's (KV_BUCKETS), e.g. a spec's, by unprefixed name. */
  buckets?: readonly string[];
}

/**
 * Deletes the JetStream streams of one deployment prefix with their consumers: the streams the platform
 * names after the prefix (its event stream and its key-value buckets) and any stream whose subjects all sit
 * under `<prefix>.`. Only those exact names: prefix `run_billing` must not take the streams of a platform
 * running beside it under `run_billing_model_usage`.
 */
export async function deleteJetStreamByPrefix(
  url: string,
  prefix: string,
  options: DeleteJetStreamOptions = {},
): Promise<DeletedJetStreamResources> {
  if (!prefix) throw new Error('refusing to delete JetStream resources without a prefix');
  const deleted: DeletedJetStreamResources = { streams: [], consumers: [] };
  const named = new Set([
    eventStreamName(prefix),
    ...[...KV_BUCKETS, ...(options.buckets ?? [])].map((bucket) => kvStreamName(bucket, prefix)),
  ]);
  await withConnection(url, async (nc) => {
    const jsm = await nc.jetstreamManager();
    for await (const stream of jsm.streams.list()) {
      const { name, subjects = [] } = stream.config;
      const owned =
        named.has(name) || (subjects.length > 0 && subjects.every((s) => s.startsWith(`${prefix}.`)));
      if (!owned) continue;
      for await (const consumer of jsm.consumers.list(name)) {
        await jsm.consumers.delete(name, consumer.name);
        deleted.consumers.push(`${name}/${consumer.name}`);
      }
      await jsm.streams.delete(name);
      deleted.streams.push(name);
    }
  });
  return deleted;
}
