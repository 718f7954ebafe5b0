import { onCommitWakeup } from './commit-wakeups';
import { PgListener } from './pg-listener';

export interface ClaimLoopOptions<T> {
  /** What the loop works on, for log lines ("jobs", "deliveries"). */
  label: string;
  /** The channel that wakes the loop when work is queued in this process (wakeAfterCommit). */
  channel: string;
  /**
   * Also LISTEN on the channel, for queues whose producers in other processes send NOTIFY: a dedicated
   * connection to this database. Without it, work queued elsewhere is found at the next poll.
   */
  listen?: {
    databaseUrl: string | undefined;
    /** application_name of the LISTEN connection, as pg_stat_activity shows it; `<channel>-listener` unless said. */
    applicationName?: string;
  };
  /** How often to look for due work anyway (retries, expired leases, a lost LISTEN). */
  pollMs: number;
  /** How many items this replica works on at once. */
  concurrency: number;
  /**
   * A run takes all the due work it finds, not one item (the outbox relay's pass publishes batches until none
   * is left): after a run the loop claims again only if it was woken meanwhile, rather than after every run,
   * where the claim would find nothing and cost a transaction.
   */
  drains?: boolean;
  /** Claims up to `limit` due items (FOR UPDATE SKIP LOCKED in the caller's queue). */
  claim(limit: number): Promise<T[]>;
  /**
   * Works on one claimed item; it must record its own outcome. A rejection is logged. `leaseLost` aborts
   * when the item's lease could not be kept (see `lease`): another replica may have it by then, so the
   * work should stop and must not record an outcome (the queue's writes are fenced by the claim).
   */
  run(item: T, leaseLost: AbortSignal): Promise<void>;
  /**
   * Keeps the claim of an item in progress: `renew` extends its lease and answers false once the claim is
   * no longer this replica's. Without it, work that outlasts the lease is claimed and done again elsewhere.
   */
  lease?: { renewEveryMs: number; renew(item: T): Promise<boolean> };
  log: { warn(message: string): void; error(message: string): void };
}

/**
 * Slots of a ClaimLoop set aside for items this process claims itself, outside claim() (rows it wrote already
 * claimed, say): see ClaimLoop.reserve.
 */
export interface SlotReservation<T> {
  readonly slots: number;
  /** Runs the items (at most `slots` of them) and gives back the slots they did not fill. */
  adopt(items: T[]): void;
  /** Gives every slot back: no item came. */
  release(): void;
}

const text = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/**
 * The worker side of a Postgres work queue, shared by every service that has one: it wakes when work is
 * queued (wakeAfterCommit in this process, NOTIFY from others where it listens) and polls for due retries,
 * expired leases and other replicas' work, claims only as many items as it has free slots, and on stop()
 * takes nothing new and waits for what it holds, so a restart loses no work.
 */
export class ClaimLoop<T> {
  private readonly running = new Set<Promise<void>>();
  private readonly listener?: PgListener;
  private timer?: NodeJS.Timeout;
  /** The claim in progress, if any: stop() waits for it, as what it claims must run before the loop stops. */
  private claiming?: Promise<void>;
  private again = false;
  /** A wake found no free slot (drains only): the next run's end claims again. */
  private missed = false;
  private stopped = false;
  /** Slots set aside by reserve() and not yet adopted or released. */
  private reserved = 0;
  /** Slots the claim in progress may fill. */
  private claimingFor = 0;
  private reservationsSettled?: () => void;
  private stopWakeups?: () => void;

  constructor(private readonly options: ClaimLoopOptions<T>) {
    if (options.listen) {
      this.listener = new PgListener({
        databaseUrl: options.listen.databaseUrl,
        channel: options.channel,
        applicationName: options.listen.applicationName ?? `${options.channel}-listener`,
        label: options.label,
        onNotification: () => this.wake(),
        onListening: () => this.wake(),
        log: options.log,
      });
    }
  }

  async start(): Promise<void> {
    if (this.options.concurrency === 0) return;
    // Polling alone finds every item. Work queued in this process wakes the loop at its commit
    // (wakeAfterCommit); LISTEN, where asked for, catches what other processes NOTIFY.
    this.stopWakeups = onCommitWakeup(this.options.channel, () => this.wake());
    await this.listener?.start();
    if (this.stopped) return;
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.wake();
  }

  /** Claims as many due items as there are free slots, now or right after the claim in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    const free = this.freeSlots();
    if (free <= 0) {
      this.missed = true;
      return;
    }
    // This claim sees everything committed before it: a wake missed earlier is answered by it.
    this.missed = false;
    this.claimingFor = free;
    this.claiming = this.options
      .claim(free)
      .then((claimed) => {
        this.claimingFor = 0;
        for (const item of claimed) this.begin(item);
        if (claimed.length === free && !this.options.drains) this.again = true;
      })
      .catch((err) =>
        this.options.log.warn(`claiming ${this.options.label} failed, will retry: ${text(err)}`),
      )
      .finally(() => {
        this.claimingFor = 0;
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Sets aside up to `max` free slots for items this process claims itself, so that claim() does not fill them
   * meanwhile (nor they what a claim in progress may bring); null when none is free or the loop is stopping.
   * A reservation neither adopted nor released within `expiresMs` gives its slots back by itself, and adopts
   * nothing after that: set it to the items' lease, after which they are anyone's to claim again.
   */
  reserve(max: number, expiresMs: number): SlotReservation<T> | null {
    if (this.stopped) return null;
    const slots = Math.min(max, this.freeSlots());
    if (slots <= 0) return null;
    this.reserved += slots;
    let open = true;
    const close = (): boolean => {
      if (!open) return false;
      open = false;
      clearTimeout(timer);
      this.reserved -= slots;
      if (this.reserved === 0) this.reservationsSettled?.();
      return true;
    };
    const timer = setTimeout(close, expiresMs);
    timer.unref();
    return {
      slots,
      adopt: (items) => {
        if (!close()) return;
        for (const item of items.slice(0, slots)) this.begin(item);
        if (items.length < slots) this.wake();
      },
      release: () => {
        if (close()) this.wake();
      },
    };
  }

  /** Slots neither running an item, nor reserved, nor asked for by the claim in progress. */
  private freeSlots(): number {
    return this.options.concurrency - this.running.size - this.reserved - this.claimingFor;
  }

  private begin(item: T): void {
    const leaseLost = new AbortController();
    const stopRenewing = this.keepLease(item, leaseLost);
    const run = this.options
      .run(item, leaseLost.signal)
      .catch((err) => this.options.log.error(`${this.options.label}: unrecorded failure: ${text(err)}`))
      .finally(() => {
        stopRenewing();
        this.running.delete(run);
        if (this.options.drains && !this.missed) return;
        this.wake();
      });
    this.running.add(run);
  }

  /** Renews the item's lease on a timer while it runs; aborts `leaseLost` once the claim is gone. */
  private keepLease(item: T, leaseLost: AbortController): () => void {
    const lease = this.options.lease;
    if (!lease) return () => undefined;
    let renewing = false;
    const timer = setInterval(() => {
      // One renewal at a time: a slow database must not pile them up.
      if (renewing) return;
      renewing = true;
      lease
        .renew(item)
        .then((held) => {
          if (held) return;
          clearInterval(timer);
          leaseLost.abort(new Error(`${this.options.label}: lease lost`));
        })
        // A failed renewal is retried at the next tick; the lease only lapses if they keep failing.
        .catch((err) =>
          this.options.log.warn(`renewing a lease of ${this.options.label} failed: ${text(err)}`),
        )
        .finally(() => (renewing = false));
    }, lease.renewEveryMs);
    return () => clearInterval(timer);
  }

  /**
   * Takes no new work, waits for the claim in progress, for open reservations to be adopted or released, and
   * for the items in progress to record their outcome, then stops listening.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.stopWakeups?.();
    await this.claiming;
    // Reserved slots belong to a transaction still open: what it claimed runs here if it commits.
    if (this.reserved > 0) await new Promise<void>((resolve) => (this.reservationsSettled = resolve));
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    await this.listener?.stop();
  }
}
