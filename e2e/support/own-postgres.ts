import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, waitFor } from '@vap/testing';

/** A Postgres server of the spec's own, which it may stop and start again (never the shared one). */
export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** Stops the server as `pg_ctl stop -m immediate` does (SIGQUIT: no checkpoint, connections cut). */
  crash(): Promise<void>;
  /** Starts it again on the same data and port (crash recovery first); resolves once it takes connections. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  dispose(): Promise<void>;
}

/** Debian's server binaries (`postgresql-<n>`), newest first. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
  if (!found) throw new Error(`no Postgres server binaries under ${root} (apt-get install postgresql)`);
  return found;
}

/** Postgres refuses to run as root: as root, its programs run as the `postgres` system user. */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

async function accepts(url: string): Promise<true | undefined> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** initdb on a fresh temporary folder, then the server on a free port (trust auth, loopback only). */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'vap-own-pg-'));
  const data = join(dir, 'data');
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const [initdb, initArgs] = asServerUser(join(bin, 'initdb'), [
    ...['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'],
  ]);
  execFileSync(initdb, initArgs, { stdio: 'ignore' });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | null = null;

  const postmasterPid = (): number | null => {
    const file = join(data, 'postmaster.pid');
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) || null : null;
  };
  const start = async () => {
    const [postgres, args] = asServerUser(join(bin, 'postgres'), [
      ...['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'],
      ...['-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off', '-c', 'max_connections=200'],
    ]);
    server = spawn(postgres, args, { stdio: 'ignore' });
    await waitFor(() => accepts(url), { timeoutMs: 30_000, intervalMs: 100, description: 'own Postgres' });
  };
  const crash = async () => {
    const pid = postmasterPid();
    if (pid && alive(pid)) {
      process.kill(pid, 'SIGQUIT');
      await waitFor(async () => (alive(pid) ? undefined : true), {
        timeoutMs: 15_000,
        intervalMs: 50,
        description: 'own Postgres to stop',
      });
    }
    server = null;
  };
  await start();
  return {
    url,
    crash,
    start,
    async dispose() {
      await crash().catch(() => undefined);
      server?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
