import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Claimable,
  claimInfrastructure,
  infrastructureOf,
  processStartTime,
  StartClaims,
  StartOwner,
  StartRefused,
} from './start-lock';

const DB = 'postgres://postgres:secret@127.0.0.1:5432/voice_agent_platform';
const NATS = 'nats://127.0.0.1:4222';
const owner = { root: '/srv/checkout', gatewayUrl: 'http://127.0.0.1:3000' };

/** A pid no process has any more. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('infrastructureOf', () => {
  it('names the database and the NATS server with its prefix, without credentials', () => {
    const claims = infrastructureOf(DB, NATS, '');
    expect(claims.map((c) => c.what)).toEqual([
      'database 127.0.0.1:5432/voice_agent_platform',
      'NATS 127.0.0.1:4222 with no subject prefix',
    ]);
    expect(JSON.stringify(claims)).not.toContain('secret');
  });

  it('sees one server however its address is spelled, and tells prefixes and databases apart', () => {
    const ids = (db: string, nats: string, prefix: string) =>
      infrastructureOf(db, nats, prefix).map((c) => c.id);
    expect(ids('postgres://u@localhost/voice_agent_platform', 'nats://localhost', '')).toEqual(
      ids(DB, `${NATS},nats://127.0.0.1:4223`, ''),
    );
    const [db, nats] = ids(DB, NATS, 'dev2');
    expect(db).toBe(ids(DB, NATS, '')[0]);
    expect(nats).not.toBe(ids(DB, NATS, '')[1]);
    expect(ids('postgres://127.0.0.1:5432/other', NATS, '')[0]).not.toBe(db);
  });
});

describe('claimInfrastructure', () => {
  let dir: string;
  let held: StartClaims[];
  const claims = infrastructureOf(DB, NATS, '');
  const claim = (what: Claimable[] = claims) => {
    const c = claimInfrastructure(what, owner, { dir });
    held.push(c);
    return c;
  };
  /** Writes a claim of `holder` where a start on `of` looks for one. */
  const plant = (of: Claimable, holder: Partial<StartOwner>) => {
    const probe = claim([of]);
    const file = readdirSync(dir).find((f) => f.endsWith('.json'))!;
    probe.release();
    writeFileSync(join(dir, file), JSON.stringify({ ...owner, startedAt: 'earlier', ...holder }));
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'start-lock-'));
    held = [];
  });
  afterEach(() => {
    for (const c of held) c.release();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second start on the same infrastructure in one line saying who runs and how to stop it', () => {
    claim();
    let refusal: unknown;
    try {
      claim(infrastructureOf(DB, NATS, 'other'));
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(StartRefused);
    const message = (refusal as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(
      `another npm start (pid ${process.pid}, from /srv/checkout, gateway http://127.0.0.1:3000`,
    );
    expect(message).toContain('uses the same database 127.0.0.1:5432/voice_agent_platform');
    expect(message).toContain(`kill ${process.pid}`);
    expect(message).toContain('NATS_SUBJECT_PREFIX');
    // The refused start holds nothing: its NATS claim was given back.
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('lets a start on a database and prefix of its own run beside the first', () => {
    claim();
    expect(() => claim(infrastructureOf('postgres://127.0.0.1:5432/second', NATS, 'second'))).not.toThrow();
    expect(readdirSync(dir)).toHaveLength(4);
  });

  it('frees the claims when released', () => {
    claim().release();
    expect(readdirSync(dir)).toHaveLength(0);
    expect(() => claim()).not.toThrow();
  });

  it('takes over a claim whose start is gone', () => {
    plant(claims[0], { pid: deadPid() });
    claim();
    const files = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
    expect(files.map((f) => f.pid)).toEqual([process.pid, process.pid]);
  });

  it('takes over a claim whose pid now belongs to another process', () => {
    if (!processStartTime(process.pid)) return; // no start times on this system: the pid alone decides
    plant(claims[1], { pid: process.pid, since: '1' });
    expect(() => claim()).not.toThrow();
  });

  it('takes over an unreadable claim', () => {
    plant(claims[0], { pid: 'x' as unknown as number });
    expect(() => claim()).not.toThrow();
  });
});
