export interface PeriodicTaskOptions {
  /** Names the task in its failure log line: "<label> failed: <message>". */
  label: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  log: { error(message: string): void };
  /** Run once when started as well, not only after the first interval. */
  runAtStart?: boolean;
}

/**
 * A job that runs every interval, one run at a time: a tick that finds the previous run still going
 * skips, a failure is logged and the next tick tries again, and stop() waits for the run in progress so
 * that a shutdown never cuts one off.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(private readonly options: PeriodicTaskOptions) {}

  start(): void {
    if (this.options.runAtStart) this.trigger();
    this.timer = setInterval(() => this.trigger(), this.options.intervalMs);
  }

  /** Runs now unless a run is in progress or the task has stopped. */
  trigger(): void {
    if (this.stopped) return;
    this.running ??= this.options
      .run()
      .then(() => undefined)
      .catch((err) => this.options.log.error(`${this.options.label} failed: ${(err as Error).message}`))
      .finally(() => (this.running = undefined));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
