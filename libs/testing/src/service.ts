import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PARENT_LINK_CHILD_ENV } from '@vap/lifecycle';
import { ChildOutput } from './child-output';
import { describeExit, ExitInfo, exitOf, stopChild, trackChild } from './child-registry';
import { serviceMainPath, workspaceRoot } from './workspace';
import { sleep } from './wait-for';

export interface StartServiceOptions {
  /** Environment of the app, on top of ours (PORT is set from `port`). */
  env?: Record<string, string | undefined>;
  port: number;
  /** Append the app's output to this file. */
  logFile?: string;
  /** Print the app's output to our stdout, each line behind its name. */
  prefixLogs?: boolean;
  /** How the log prefix reads (default: the name). */
  label?: string;
  /** Bound on the wait for /health/ready (default 60 s: first start creates the database and migrates). */
  readyTimeoutMs?: number;
  /**
   * What "started" means (default /health/ready). /health/live suits an app whose peers are absent on
   * purpose, e.g. a gateway started to observe what happens when no service answers.
   */
  readyPath?: '/health/ready' | '/health/live';
  /** How long stop() waits after the signal before SIGKILL (default 20 s). */
  stopTimeoutMs?: number;
  /** Abandon the start (the child is stopped and the promise rejects). */
  signal?: AbortSignal;
  /** Repository root; found from this file when omitted. */
  rootDir?: string;
  /** Extra command-line arguments for the app. */
  args?: string[];
  /** Options for Node itself, before the script (e.g. `--cpu-prof`, which NODE_OPTIONS does not allow). */
  nodeArgs?: string[];
  /**
   * Run the app in its own process group, so that a Ctrl-C in the terminal reaches only the parent,
   * which then stops the apps in order. Leave off under a test runner, which does not forward signals.
   * Either way the app stops when this process ends, however it ends (see PARENT_LINK_ENV).
   */
  ownProcessGroup?: boolean;
}

export interface ServiceHandle {
  name: string;
  url: string;
  port: number;
  pid: number;
  logFile?: string;
  /** Resolves when the process has exited, however that happened. */
  exited: Promise<ExitInfo>;
  /** Sends the signal, waits for exit (up to stopTimeoutMs), then SIGKILLs. */
  stop(signal?: NodeJS.Signals): Promise<ExitInfo>;
  /** The app's last lines of output. */
  recentOutput(count?: number): string[];
}

export class ServiceStartError extends Error {
  constructor(
    message: string,
    readonly service: string,
    readonly output: string[],
    readonly logFile?: string,
  ) {
    super(message);
    this.name = 'ServiceStartError';
  }
}

async function isReady(url: string, path: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(3000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts a built app (`node dist/apps/<name>/apps/<name>/src/main.js`) on `port` and resolves once its
 * GET /health/ready answers 200. Rejects with the app's last output if it exits or is not ready in time.
 */
/**
 * Node flags an app runs with wherever it is started (the Kubernetes Deployment and compose set the same through
 * NODE_OPTIONS). voice: a 4 MB young generation instead of V8's 16 MB. Its frame clocks send every call's audio
 * each 20 ms, and a scavenge pauses all of them for as long as it copies what survives; a smaller young generation
 * collects more often, in about 1.5 ms instead of 3-4 ms (bench:voice, 200 calls), the same work overall.
 */
export const APP_NODE_ARGS: Readonly<Record<string, readonly string[]>> = {
  voice: ['--max-semi-space-size=4'],
};

/**
 * The whole environment an app is started with: ours (HOST 127.0.0.1 unless we set one), then `env`, then its
 * PORT and the parent link, which are the launcher's own.
 */
export function serviceEnvOf(
  processEnv: Record<string, string | undefined>,
  env: Record<string, string | undefined> | undefined,
  port: number,
  root = workspaceRoot(),
): Record<string, string | undefined> {
  return {
    HOST: '127.0.0.1',
    NODE_COMPILE_CACHE: compileCacheDir(root),
    ...processEnv,
    ...env,
    PORT: String(port),
    ...PARENT_LINK_CHILD_ENV,
  };
}

/**
 * Node's on-disk code cache (NODE_COMPILE_CACHE) for the apps started here, unless the caller names its own: an
 * app compiles about 1.2 s of CPU worth of modules at each start, a quarter less once cached, and a test run
 * starts the apps dozens of times. It lives in the repository's ignored tmp/, so a fresh clone starts cold.
 */
function compileCacheDir(root: string): string {
  return join(root, 'tmp', 'node-compile-cache');
}

export async function startService(name: string, options: StartServiceOptions): Promise<ServiceHandle> {
  const root = options.rootDir ?? workspaceRoot();
  const main = serviceMainPath(name, root);
  if (!existsSync(main)) {
    throw new ServiceStartError(`${name} is not built (${main} is missing): run \`npm run build\``, name, []);
  }
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const readyPath = options.readyPath ?? '/health/ready';
  const stopTimeoutMs = options.stopTimeoutMs ?? 20_000;
  const output = new ChildOutput({
    logFile: options.logFile,
    prefix: options.prefixLogs ? (options.label ?? name) : undefined,
  });
  const nodeArgs = [...(APP_NODE_ARGS[name] ?? []), ...(options.nodeArgs ?? [])];
  const child = spawn(process.execPath, [...nodeArgs, main, ...(options.args ?? [])], {
    cwd: root,
    env: serviceEnvOf(process.env, options.env, options.port, root),
    // stdin stays open and unwritten: its end tells the app that we are gone, however we went (SIGKILL too).
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: options.ownProcessGroup ?? false,
  });
  child.stdin?.on('error', () => undefined);
  trackChild(child);
  output.attach(child.stdout);
  output.attach(child.stderr);
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const exited = exitOf(child).then(async (info) => {
    await output.close();
    return info;
  });
  const url = `http://127.0.0.1:${options.port}`;
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => stopChild(child, exited, signal, stopTimeoutMs);
  const fail = async (reason: string): Promise<never> => {
    await stop('SIGTERM');
    throw new ServiceStartError(
      `${name} ${reason}\n${output.describe()}`,
      name,
      output.tail(),
      options.logFile,
    );
  };

  let exitInfo: ExitInfo | undefined;
  let error: Error | undefined;
  void exited.then((info) => (exitInfo = info));
  void spawnError.then((err) => (error = err));
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (error) return fail(`could not be started: ${error.message}`);
    if (exitInfo) return fail(`${describeExit(exitInfo)} before it was ready`);
    if (options.signal?.aborted) return fail('start was cancelled');
    if (await isReady(url, readyPath)) break;
    if (Date.now() > deadline)
      return fail(`was not ready within ${readyTimeoutMs} ms (GET ${url}${readyPath})`);
    // A local GET costs next to nothing; a longer pause only delays every start (the gateway waits on the rest).
    await sleep(50);
  }

  return {
    name,
    url,
    port: options.port,
    pid: child.pid!,
    logFile: options.logFile,
    exited,
    stop,
    recentOutput: (count?: number) => output.tail(count),
  };
}
