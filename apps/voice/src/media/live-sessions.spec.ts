import { register } from 'prom-client';
import { DRAIN_REASON, LiveSessions } from './live-sessions';
import type { MediaSession } from './media-session';

/** A session that finishes when told to, or when ended from outside. */
function fakeSession(): MediaSession & { finish(): void; endedWith: string[] } {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const endedWith: string[] = [];
  return {
    callId: 'call',
    finished,
    finish,
    endedWith,
    end(reason: string) {
      endedWith.push(reason);
      setTimeout(finish, 5);
    },
  } as unknown as MediaSession & { finish(): void; endedWith: string[] };
}

async function gauge(): Promise<number> {
  const metric = await register.getSingleMetric('voice_live_sessions')!.get();
  return metric.values[0]?.value ?? 0;
}

describe('LiveSessions', () => {
  it('counts live sessions in voice_live_sessions', async () => {
    const sessions = new LiveSessions();
    const a = fakeSession();
    sessions.add(a);
    sessions.add(fakeSession());
    expect(sessions.size).toBe(2);
    expect(await gauge()).toBe(2);
    a.finish();
    await a.finished;
    await new Promise((resolve) => setImmediate(resolve));
    expect(await gauge()).toBe(1);
  });

  it('lets calls that end by themselves before the deadline end untouched', async () => {
    const sessions = new LiveSessions();
    const a = fakeSession();
    sessions.add(a);
    setTimeout(() => a.finish(), 20);
    expect(await sessions.drain(5_000)).toEqual({ endedAtDeadline: 0 });
    expect(a.endedWith).toEqual([]);
  });

  it('ends the calls still live at the deadline and waits for them to report', async () => {
    const sessions = new LiveSessions();
    const early = fakeSession();
    const late = fakeSession();
    sessions.add(early);
    sessions.add(late);
    setTimeout(() => early.finish(), 5);
    const started = Date.now();
    expect(await sessions.drain(60)).toEqual({ endedAtDeadline: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(early.endedWith).toEqual([]);
    expect(late.endedWith).toEqual([DRAIN_REASON]);
    expect(sessions.size).toBe(0);
  });
});
