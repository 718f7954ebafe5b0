import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import {
  BACKEND_SERVICES,
  createTestDatabase,
  deleteJetStreamByPrefix,
  freePort,
  sleep,
  TestDatabase,
  workspaceRoot,
} from '@vap/testing';
import { api } from '../../support';
import { callee, VOICE_ID } from '../calls/call-fixtures';

const START = join(workspaceRoot(), 'dist', 'tools', 'tools', 'start', 'start.js');
/** The calls service's default port, held here so that `npm start` finds it taken. */
const TAKEN_PORT = 3002;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Holds a port for the test; a port someone else already holds is just as taken. */
async function holdPort(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Settings of the user's environment that `npm start` must hand its apps unchanged: one it used to force
 * (`true`), one every app reads, and one of voice's, neither a default.
 */
const PASSED_THROUGH = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
  RPC_TIMEOUT_MS: '5001',
  MEDIA_MAX_UTTERANCE_MS: '29000',
};

/** The environment process `pid` was started with (Linux). */
function environOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

/** Pids of the apps `npm start` (pid `parent`) runs, by app name (from each one's script path). */
function appsOf(parent: number): Map<string, number> {
  const pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(parent)], { encoding: 'utf8' })
    .split('\n')
    .map(Number)
    .filter((pid) => pid > 0);
  return new Map(
    pids.flatMap((pid) => {
      const app = /dist\/apps\/([a-z-]+)\//.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1];
      return app ? [[app, pid] as const] : [];
    }),
  );
}

/**
 * `npm start` as a new user runs it: a non-default gateway PORT and none of the URL settings. A sandbox
 * call through that gateway must complete, which needs the calls service to send the sandbox's callbacks
 * to that gateway; and a taken backend port is reported in one line instead of stopping the start.
 */
describe('npm start with PORT set and nothing else', () => {
  let child: ChildProcess;
  let output = '';
  let database: TestDatabase;
  let held: Server | undefined;
  let base: string;
  const prefix = `${process.env.E2E_NATS_PREFIX}_start${randomBytes(2).toString('hex')}`;
  /** Its apps, once it is killed: stopped here should the test find them running. */
  let apps: number[] = [];
  const launch = (port: number) =>
    spawn(process.execPath, [START], {
      cwd: workspaceRoot(),
      // Only what a user's shell would carry, plus where this run's infrastructure is.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: String(port),
        DATABASE_URL: database.url,
        NATS_URL: process.env.E2E_NATS_URL!,
        NATS_SUBJECT_PREFIX: prefix,
        LOG_LEVEL: 'warn',
        ...PASSED_THROUGH,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  beforeAll(async () => {
    if (!existsSync(START)) throw new Error(`${START} is missing: run the build first`);
    database = await createTestDatabase(process.env.E2E_DATABASE_URL!, 'vap_e2e');
    held = await holdPort(TAKEN_PORT);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = launch(port);
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 150_000;
    while (!output.includes('Press Ctrl-C to stop.')) {
      const gone = await Promise.race([exited.then(() => true), sleep(250).then(() => false)]);
      if (gone || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    }
  }, 180_000);

  afterAll(async () => {
    // A child killed by a signal (the SIGKILL test) has no exit code but has exited: waiting for its exit
    // would wait out the deadline.
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await Promise.race([exited, sleep(40_000)]);
    }
    for (const pid of apps.filter(isAlive)) process.kill(pid, 'SIGKILL');
    held?.close();
    await database?.drop().catch(() => undefined);
    await deleteJetStreamByPrefix(process.env.E2E_NATS_URL!, prefix).catch(() => undefined);
  }, 60_000);

  it('says in one line which backend port was taken and runs that service elsewhere', () => {
    const lines = output.split('\n').filter((l) => l.includes(`port ${TAKEN_PORT} (calls) is in use`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/calls listens on \d+ instead/);
    expect(output).toMatch(new RegExp(`API base URL +${base}/api/v2`));
  });

  it('completes a sandbox call placed through that gateway', async () => {
    const partner = await api('/admin/v1/partners', {
      baseUrl: base,
      token: 'dev-admin-token',
      body: { name: `start ${randomBytes(3).toString('hex')}`, balance_inr: 500 },
    });
    expect([200, 201]).toContain(partner.status);
    const partnerId: string = partner.body.data.partner.id;
    let key: string = partner.body.data.api_key;
    // /calls allows 10 requests a minute per key: a fresh key of the same partner before that runs out.
    let used = 0;
    const callsKey = async () => {
      if (++used % 9 === 0) {
        const issued = await api(`/admin/v1/partners/${partnerId}/api-keys`, {
          baseUrl: base,
          token: 'dev-admin-token',
          body: {},
        });
        key = issued.body.data.api_key;
      }
      return key;
    };
    const agent = await api('/agent', {
      baseUrl: base,
      key,
      body: {
        agent_name: 'Start check',
        prompt: 'You are a helpful support agent.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
        intro_message: 'Hi, this is Acme support.',
      },
    });
    expect({ status: agent.status, body: agent.body }).toMatchObject({ status: 200 });
    const started = await api('/calls/start', {
      baseUrl: base,
      key: await callsKey(),
      body: { agent_id: agent.body.data.id, to_number: callee('42') },
    });
    expect({ status: started.status, body: started.body }).toMatchObject({ status: 200 });
    const callId: string = started.body.data.call_id;

    let status = '';
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const call = await api(`/calls/${callId}`, { baseUrl: base, key: await callsKey() });
      expect(call.status).toBe(200);
      status = call.body.data.status;
      if (status === 'completed') break;
      await sleep(500);
    }
    expect(status).toBe('completed');
  }, 90_000);

  it('refuses a second start on the same database and prefix in one line naming the running one', async () => {
    const second = launch(await freePort());
    let said = '';
    second.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    second.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    const refusals = said.split('\n').filter((l) => l.includes('another npm start'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain(`(pid ${child.pid}, `);
    expect(refusals[0]).toContain(`gateway ${base}`);
    expect(refusals[0]).toContain(`kill ${child.pid}`);
    expect(said).not.toContain('starting ');
  }, 60_000);

  it("hands its apps the user's settings unchanged, and its own where it owns them", () => {
    const apps = appsOf(child.pid!);
    expect([...apps.keys()].sort()).toEqual([...BACKEND_SERVICES, 'gateway'].sort());
    for (const [app, pid] of apps) {
      const env = environOf(pid);
      expect({ app, NODE_ENV: env.NODE_ENV, DATABASE_URL: env.DATABASE_URL }).toEqual({
        app,
        NODE_ENV: 'development',
        DATABASE_URL: database.url,
      });
      expect({ app, ...env }).toMatchObject({ app, ...PASSED_THROUGH });
    }
  });

  // Last: it ends the start under test.
  it('takes its apps with it when it is killed with SIGKILL', async () => {
    apps = execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' })
      .split('\n')
      .map(Number)
      .filter((pid) => pid > 0);
    // Every backend app and the gateway, each a child of the start.
    expect(apps).toHaveLength(BACKEND_SERVICES.length + 1);
    child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (apps.some(isAlive) && Date.now() < deadline) await sleep(100);
    expect(apps.filter(isAlive)).toEqual([]);
  }, 30_000);
});
