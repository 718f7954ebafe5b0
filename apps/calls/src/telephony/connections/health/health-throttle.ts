import { ConnectionFailureReason } from '@vap/api';

export type HealthEvent =
  | { kind: 'success'; at: Date; operation: string }
  | { kind: 'failure'; at: Date; operation: string; status: number | null; reason: ConnectionFailureReason }
  | { kind: 'callback'; at: Date };

export type HealthWrite = (connectionId: string, event: HealthEvent) => Promise<void>;

interface Slot {
  /** When this connection's events of this kind were last written (ms since epoch). */
  writtenAt: number;
  /** The latest event not written yet; the trailing write takes it. */
  pending: HealthEvent | null;
  timer: ReturnType<typeof setTimeout> | null;
}

/** Beyond this many idle slots, those written longer than a window ago are forgotten. */
const MAX_IDLE_SLOTS = 10_000;

/**
 * At most one write per connection and kind (success, failure, callback) per window: the first event of a
 * quiet connection is written at once, the later ones of the window wait and only the latest of them is
 * written when the window ends. So a busy connection costs a write every few seconds, not one per request,
 * and what is shown trails the truth by at most one window. A failed write is reported, never thrown.
 */
export class HealthThrottle {
  private readonly slots = new Map<string, Slot>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly windowMs: number,
    private readonly write: HealthWrite,
    private readonly onError: (err: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  record(connectionId: string, event: HealthEvent): void {
    const key = `${connectionId}:${event.kind}`;
    const slot = this.slots.get(key);
    const now = this.now();
    if (!slot) {
      this.prune(now);
      this.slots.set(key, { writtenAt: now, pending: null, timer: null });
      this.run(connectionId, event);
      return;
    }
    if (!slot.timer && now - slot.writtenAt >= this.windowMs) {
      slot.writtenAt = now;
      this.run(connectionId, event);
      return;
    }
    slot.pending = event;
    if (!slot.timer) {
      slot.timer = setTimeout(() => this.trail(connectionId, slot), slot.writtenAt + this.windowMs - now);
      // A pending health write never keeps the process up on its own; close() writes it.
      slot.timer.unref?.();
    }
  }

  /** Writes every pending event now (on shutdown) and waits for the writes under way. */
  async close(): Promise<void> {
    for (const [key, slot] of this.slots) {
      if (!slot.timer) continue;
      clearTimeout(slot.timer);
      this.trail(key.slice(0, key.lastIndexOf(':')), slot);
    }
    await Promise.all([...this.inFlight]);
  }

  private trail(connectionId: string, slot: Slot): void {
    slot.timer = null;
    const event = slot.pending;
    slot.pending = null;
    if (!event) return;
    slot.writtenAt = this.now();
    this.run(connectionId, event);
  }

  private run(connectionId: string, event: HealthEvent): void {
    const done = this.write(connectionId, event)
      .catch(this.onError)
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }

  private prune(now: number): void {
    if (this.slots.size < MAX_IDLE_SLOTS) return;
    for (const [key, slot] of this.slots) {
      if (!slot.timer && now - slot.writtenAt >= this.windowMs) this.slots.delete(key);
    }
  }
}
