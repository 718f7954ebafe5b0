// Long-lived python3 processes running Debian's PocketSphinx, each holding the US English model (loading it takes
// about a quarter of a second, so not per utterance). A request is a whole utterance, 16 kHz PCM16 mono, sent as
// a 4-byte little-endian length and the samples; the answer is one JSON line.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { POCKETSPHINX_MODEL_DIR } from './local-speech';

/** The rate PocketSphinx's US English model takes. */
export const POCKETSPHINX_SAMPLE_RATE = 16000;

/** The worker, run with `python3 -c` (nothing to copy into a build). It exits when its stdin closes. */
export const POCKETSPHINX_WORKER = `
import json, struct, sys
from pocketsphinx import Decoder
model = sys.argv[1]
config = Decoder.default_config()
config.set_string('-hmm', model + '/en-us')
config.set_string('-lm', model + '/en-us.lm.bin')
config.set_string('-dict', model + '/cmudict-en-us.dict')
config.set_string('-logfn', '/dev/null')
decoder = Decoder(config)
out = sys.stdout
out.write(json.dumps({'ready': True}) + '\\n')
out.flush()
stdin = sys.stdin.buffer
while True:
    head = stdin.read(4)
    if len(head) < 4:
        break
    size = struct.unpack('<I', head)[0]
    audio = stdin.read(size)
    if len(audio) < size:
        break
    try:
        decoder.start_utt()
        decoder.process_raw(audio, False, True)
        decoder.end_utt()
        hyp = decoder.hyp()
        out.write(json.dumps({'text': hyp.hypstr if hyp else ''}) + '\\n')
    except Exception as error:
        out.write(json.dumps({'error': str(error)}) + '\\n')
    out.flush()
`;

/** Of a worker's stderr, what an error quotes. */
const STDERR_CHARS = 300;
/** Longest answer line a worker writes (a transcript of the longest utterance is far shorter). */
const MAX_LINE_CHARS = 64 * 1024;

export interface PocketSphinxPoolOptions {
  pythonPath: string;
  /** Worker processes at most. */
  size: number;
  /** Utterances waiting for a worker at most; one more is refused. */
  maxQueue: number;
  modelDir?: string;
}

interface Job {
  audio: Buffer;
  resolve(text: string): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

class Worker {
  readonly process: ChildProcessWithoutNullStreams;
  ready = false;
  job: Job | undefined;
  /** Settles when the model is loaded or the process is gone. */
  readonly started: Promise<void>;
  private markStarted!: () => void;
  private line = '';
  private stderr = '';

  constructor(
    options: PocketSphinxPoolOptions,
    private readonly onReady: (worker: Worker) => void,
    private readonly onAnswer: (worker: Worker, answer: { text?: string; error?: string }) => void,
    private readonly onExit: (worker: Worker, reason: string) => void,
  ) {
    this.started = new Promise((resolve) => (this.markStarted = resolve));
    this.process = spawn(
      options.pythonPath,
      ['-c', POCKETSPHINX_WORKER, options.modelDir ?? POCKETSPHINX_MODEL_DIR],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
    );
    this.process.stdout.setEncoding('utf8');
    this.process.stdout.on('data', (data: string) => this.read(data));
    this.process.stderr.setEncoding('utf8');
    this.process.stderr.on('data', (data: string) => {
      if (this.stderr.length < 4 * STDERR_CHARS) this.stderr += data;
    });
    this.process.stdin.on('error', () => undefined);
    let gone = false;
    const exit = (reason: string) => {
      if (gone) return;
      gone = true;
      this.markStarted();
      const said = this.stderr.trim().split('\n').slice(-1)[0]?.slice(0, STDERR_CHARS);
      this.onExit(this, said ? `${reason}: ${said}` : reason);
    };
    this.process.on('error', (error) => exit(`the recogniser could not start (${error.message})`));
    this.process.on('close', (code, signal) =>
      exit(`the recogniser process exited (${signal ? `signal ${signal}` : `code ${code}`})`),
    );
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  send(job: Job): void {
    this.job = job;
    const head = Buffer.alloc(4);
    head.writeUInt32LE(job.audio.length);
    this.process.stdin.write(head);
    this.process.stdin.write(job.audio);
  }

  end(): void {
    this.process.stdin.end();
    this.process.kill('SIGTERM');
  }

  private read(data: string): void {
    this.line += data;
    let newline: number;
    while ((newline = this.line.indexOf('\n')) >= 0) {
      const text = this.line.slice(0, newline);
      this.line = this.line.slice(newline + 1);
      let answer: { ready?: boolean; text?: string; error?: string };
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        answer = { error: `the recogniser wrote ${JSON.stringify(text.slice(0, 80))}` };
      }
      if (answer.ready) {
        this.ready = true;
        this.markStarted();
        this.onReady(this);
      } else this.onAnswer(this, answer);
    }
    if (this.line.length > MAX_LINE_CHARS) this.process.kill('SIGKILL');
  }
}

/**
 * The recogniser processes of one replica, started as utterances need them (up to `size`) and kept. Utterances
 * wait in a bounded queue; one whose caller gives up while it waits leaves the queue. A worker that dies fails the
 * utterance it held and is replaced by the next one that needs it; a worker that cannot even start fails the queue
 * (the same would happen to its replacement).
 */
export class PocketSphinxPool {
  private readonly workers = new Set<Worker>();
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(private readonly options: PocketSphinxPoolOptions) {
    if (!(options.size >= 1) || !(options.maxQueue >= 0)) {
      throw new RangeError(`PocketSphinxPool: size must be at least 1 (got ${options.size})`);
    }
  }

  /** Worker processes at most. */
  get size(): number {
    return this.options.size;
  }

  /** The workers' process ids. */
  get workerPids(): number[] {
    return [...this.workers].flatMap((w) => (w.pid === undefined ? [] : [w.pid]));
  }

  /** Utterances waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Starts workers up to `count` (default all) and waits until each has loaded the model, so no utterance pays
   * for it. A worker that could not start is gone when this settles.
   */
  async warm(count = this.options.size): Promise<void> {
    while (!this.closed && this.workers.size < Math.min(count, this.options.size)) this.spawn();
    await Promise.all([...this.workers].map((worker) => worker.started));
  }

  /**
   * The text of a whole utterance (16 kHz PCM16 mono); '' when nothing was recognised. `idleOnly`: refused at
   * once unless a worker is free now (a speculation never waits in the queue ahead of a final transcript).
   */
  decode(
    pcm: Int16Array,
    signal?: AbortSignal,
    { idleOnly = false }: { idleOnly?: boolean } = {},
  ): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the recogniser is shut down'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (
      idleOnly &&
      (this.queue.length > 0 || (!this.idleWorker() && this.workers.size >= this.options.size))
    ) {
      return Promise.reject(new Error('the recogniser is busy with other utterances'));
    }
    if (this.queue.length >= this.options.maxQueue && !this.idleWorker()) {
      return Promise.reject(
        new Error(
          `the recogniser is busy (${this.queue.length} utterances wait for its ${this.options.size})`,
        ),
      );
    }
    return new Promise<string>((resolve, reject) => {
      const audio = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      const job: Job = { audio, resolve, reject, signal };
      if (signal) {
        job.onAbort = () => {
          const at = this.queue.indexOf(job);
          if (at >= 0) this.queue.splice(at, 1);
          // A job a worker has: its answer is ignored when it comes.
          reject(signal.reason);
        };
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Ends every worker; queued utterances fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, new Error('the recogniser is shut down'));
    const exits = [...this.workers].map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.process.exitCode !== null || worker.process.signalCode !== null) resolve();
          else worker.process.once('close', () => resolve());
          worker.end();
        }),
    );
    await Promise.all(exits);
  }

  private idleWorker(): Worker | undefined {
    return [...this.workers].find((w) => w.ready && !w.job);
  }

  private pump(): void {
    while (this.queue.length) {
      const worker = this.idleWorker();
      if (!worker) {
        const starting = [...this.workers].filter((w) => !w.ready).length;
        if (this.workers.size < this.options.size && starting < this.queue.length) this.spawn();
        return;
      }
      worker.send(this.queue.shift()!);
    }
  }

  private spawn(): void {
    this.workers.add(
      new Worker(
        this.options,
        () => this.pump(),
        (worker, answer) => {
          const job = worker.job;
          worker.job = undefined;
          if (job) {
            if (typeof answer.text === 'string') this.settle(job, undefined, answer.text.trim());
            else this.settle(job, new Error(`the recogniser failed: ${answer.error ?? 'no text'}`));
          }
          this.pump();
        },
        (worker, reason) => {
          this.workers.delete(worker);
          if (worker.job) this.settle(worker.job, new Error(reason));
          worker.job = undefined;
          if (this.closed) return;
          // It never loaded the model: its replacement would not either.
          if (!worker.ready) for (const job of this.queue.splice(0)) this.settle(job, new Error(reason));
          else this.pump();
        },
      ),
    );
  }

  private settle(job: Job, error: unknown, text?: string): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (error) job.reject(error);
    else job.resolve(text ?? '');
  }
}
