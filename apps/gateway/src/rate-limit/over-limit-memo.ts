import { RateLimitResult } from './rate-limit.service';

/** Windows remembered at once; beyond it the expired ones go, and if that is not enough, all of them. */
const MAX_ENTRIES = 10_000;

export interface OverLimit {
  limit: number;
  resetAt: Date;
  message: string;
}

/**
 * The per-key and per-account windows this replica has seen over their limit, until they reset. A window
 * over its limit stays over it until its reset time, so further requests in it are refused here without a
 * round trip to Postgres: a flood past its limits then costs no database work, and its requests, queued on
 * one hot row, never hold the pool's connections that other accounts' requests need. Bounded: forgetting an
 * entry only means asking Postgres again.
 */
export class OverLimitMemo {
  private readonly windows = new Map<string, OverLimit>();

  get(id: string): OverLimit | undefined {
    const found = this.windows.get(id);
    if (found && found.resetAt.getTime() <= Date.now()) {
      this.windows.delete(id);
      return undefined;
    }
    return found;
  }

  remember(id: string, limit: number, { resetAt }: RateLimitResult, message: string): void {
    if (this.windows.size >= MAX_ENTRIES) {
      const now = Date.now();
      for (const [key, window] of this.windows) if (window.resetAt.getTime() <= now) this.windows.delete(key);
      if (this.windows.size >= MAX_ENTRIES) this.windows.clear();
    }
    this.windows.set(id, { limit, resetAt, message });
  }
}
