import { setTimeout as sleep } from 'node:timers/promises';
import { liveSessionsGauge } from '../metrics/voice.metrics';
import type { MediaSession } from './media-session';

/** end_call_reason of calls a draining replica ended at its deadline. */
export const DRAIN_REASON = 'replica_draining';

/** The media sessions this replica serves, for the live-sessions gauge and the drain. */
export class LiveSessions {
  private readonly sessions = new Set<MediaSession>();

  get size(): number {
    return this.sessions.size;
  }

  add(session: MediaSession): void {
    this.sessions.add(session);
    liveSessionsGauge.set(this.sessions.size);
    void session.finished.finally(() => {
      this.sessions.delete(session);
      liveSessionsGauge.set(this.sessions.size);
    });
  }

  /**
   * Lets the live calls finish on their own for up to `deadlineMs`, then ends the rest (a farewell where
   * the conversation has time for one) and waits until every one has reported its outcome.
   */
  async drain(deadlineMs: number): Promise<{ endedAtDeadline: number }> {
    const allFinished = () => Promise.all([...this.sessions].map((s) => s.finished));
    if (this.sessions.size === 0) return { endedAtDeadline: 0 };
    const stop = new AbortController();
    const deadline = sleep(deadlineMs, 'deadline' as const, { signal: stop.signal }).catch(
      () => 'done' as const,
    );
    // Sessions keep arriving from admissions under way when the drain began; wait for whatever is live.
    const settled = (async () => {
      while (this.sessions.size > 0) await allFinished();
      return 'done' as const;
    })();
    const first = await Promise.race([settled, deadline]);
    stop.abort();
    if (first === 'done') return { endedAtDeadline: 0 };
    // Streams admitted while the first ones were being ended are ended too.
    let ended = 0;
    while (this.sessions.size > 0) {
      const remaining = [...this.sessions];
      for (const session of remaining) session.end(DRAIN_REASON);
      ended += remaining.length;
      await Promise.all(remaining.map((s) => s.finished));
    }
    return { endedAtDeadline: ended };
  }
}
