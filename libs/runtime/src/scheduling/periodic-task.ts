export interface PeriodicTaskOptions {
  /** Names the task in its failure log line: "<label> failed: <message>". */
  label: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  log: { error(message: string): void };
  /** Run once when started as well, not only after the first interval. */
  runAtStart?: boolean;
  /**
   * The first run comes at a random point of the first interval, then every interval: replicas started
   * together (a rollout) spread their runs instead of all running at once.
   */
  spreadFirstRun?: boolean;
  /** The timers do not keep the process alive (a housekeeping job that must not delay an exit). */
  unref?: boolean;
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
    const { intervalMs, runAtStart, spreadFirstRun } = this.options;
    if (runAtStart) this.trigger();
    if (!spreadFirstRun) {
      this.every(intervalMs);
      return;
    }
    this.timer = this.unrefed(
      setTimeout(
        () => {
          this.trigger();
          this.every(intervalMs);
        },
        Math.floor(Math.random() * intervalMs),
      ),
    );
  }

  private every(intervalMs: number): void {
    this.timer = this.unrefed(setInterval(() => this.trigger(), intervalMs));
  }

  private unrefed(timer: NodeJS.Timeout): NodeJS.Timeout {
    return this.options.unref ? timer.unref() : timer;
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
    // The first (spread) run's timeout or the interval: clearTimeout clears either.
    clearTimeout(this.timer);
    await this.running;
  }
}
