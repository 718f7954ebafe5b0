/**
 * One `npm start` per database and per NATS subject prefix on a machine: a second one on the same infrastructure
 * would silently take a share of the first one's commands, events and webhook deliveries. Each start claims
 * what it uses with a file in the system's temporary folder (shared by every checkout on the machine) naming its
 * process; a claim whose process is gone (a start that was killed) is stale and taken over.
 */
import { createHash } from 'node:crypto';
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Claimable {
  /** What is claimed, as the refusal names it ("database 127.0.0.1:5432/voice_agent_platform"). */
  what: string;
  /** Identifies it: equal ids are the same infrastructure. */
  id: string;
}

/** Who holds a claim. */
export interface StartOwner {
  pid: number;
  /** The process's start time where the system tells it (Linux), so that a reused pid is not taken for it. */
  since?: string;
  /** The checkout it runs from. */
  root: string;
  gatewayUrl?: string;
  startedAt: string;
}

export class StartRefused extends Error {
  constructor(
    readonly claim: Claimable,
    readonly owner: StartOwner,
  ) {
    const at = owner.gatewayUrl ? `, gateway ${owner.gatewayUrl}` : '';
    super(
      `another npm start (pid ${owner.pid}, from ${owner.root}${at}, since ${owner.startedAt}) uses the same ` +
        `${claim.what}: stop it (Ctrl-C in its terminal, or kill ${owner.pid}), or run this one on infrastructure ` +
        `of its own (DATABASE_URL naming another database, another NATS_SUBJECT_PREFIX, a free PORT)`,
    );
    this.name = 'StartRefused';
  }
}

function defaultHost(host: string): string {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' ? '127.0.0.1' : h;
}

/** What a start on this database and NATS prefix claims: each of them alone is enough to share work. */
export function infrastructureOf(databaseUrl: string, natsUrl: string, subjectPrefix: string): Claimable[] {
  const db = new URL(databaseUrl);
  const database = `${defaultHost(db.hostname)}:${db.port || 5432}${db.pathname || '/postgres'}`;
  // NATS_URL may list several servers of one cluster; the first names it.
  const nats = new URL(natsUrl.split(',')[0].trim());
  const server = `${defaultHost(nats.hostname)}:${nats.port || 4222}`;
  const prefix = subjectPrefix ? `subject prefix "${subjectPrefix}"` : 'no subject prefix';
  return [
    { what: `database ${database}`, id: `postgres ${database}` },
    { what: `NATS ${server} with ${prefix}`, id: `nats ${server} ${subjectPrefix}` },
  ];
}

/** The process's start time in clock ticks since boot (Linux), or undefined where the system does not say. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' are plain.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isRunning(owner: StartOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const since = processStartTime(owner.pid);
  return !owner.since || !since || since === owner.since;
}

function readOwner(file: string): StartOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as StartOwner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

export interface StartClaims {
  /** Gives the claims up (also done when the process exits). */
  release(): void;
}

export interface ClaimOptions {
  /** Where claims live (default: the system's temporary folder, shared by every checkout). */
  dir?: string;
}

/**
 * Claims each of `claims` for this process, or throws StartRefused naming the start that holds one (giving up
 * those it got). Claims of processes that are gone are taken over.
 */
export function claimInfrastructure(
  claims: Claimable[],
  owner: Omit<StartOwner, 'pid' | 'since' | 'startedAt'>,
  options: ClaimOptions = {},
): StartClaims {
  const dir = options.dir ?? tmpdir();
  const me: StartOwner = {
    pid: process.pid,
    since: processStartTime(process.pid),
    ...owner,
    startedAt: new Date().toISOString(),
  };
  const content = JSON.stringify(me);
  const held: string[] = [];
  const release = () => {
    for (const file of held.splice(0)) {
      if (readOwner(file)?.pid === me.pid) rmSync(file, { force: true });
    }
    process.removeListener('exit', release);
  };
  process.on('exit', release);
  try {
    for (const claim of claims) {
      const file = join(
        dir,
        `vap-start-${createHash('sha256').update(claim.id).digest('hex').slice(0, 16)}.json`,
      );
      claimFile(file, content, claim);
      held.push(file);
    }
  } catch (err) {
    release();
    throw err;
  }
  return { release };
}

function claimFile(file: string, content: string, claim: Claimable): void {
  // Written whole under another name, then linked into place: the link fails when a claim exists, and a
  // reader never sees half a file.
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, content);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, file);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw err;
      }
      const holder = readOwner(file);
      if (holder && isRunning(holder)) throw new StartRefused(claim, holder);
      // A start that was killed left it behind.
      try {
        unlinkSync(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  } finally {
    rmSync(draft, { force: true });
  }
}
