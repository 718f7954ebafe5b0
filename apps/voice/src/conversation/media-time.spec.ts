import { ManualClock } from '@vap/runtime';
import { MediaTime } from './media-time';

describe('MediaTime', () => {
  let time: MediaTime;

  afterEach(() => time?.stop());

  it('never runs a timer before its media time on the wall clock, at a scale that makes its delay fractional', async () => {
    // Node rounds a fractional delay and measures it from the loop's cached time: a bare setTimeout of
    // mediaMs / timeScale fires early for most of these (up to ~2 ms of wall time, 40 ms of media time here).
    time = new MediaTime(20);
    const early: number[] = [];
    for (let i = 0; i < 200; i++) {
      const mediaMs = 1 + ((i * 37) % 400) + i / 7;
      await new Promise<void>((resolve) => {
        const dueAt = time.now() + mediaMs;
        time.after(mediaMs, () => {
          if (time.now() < dueAt) early.push(dueAt - time.now());
          resolve();
        });
      });
    }
    expect(early).toEqual([]);
  });

  it('a cancelled timer does not run, nor does any timer once stopped', () => {
    const clock = new ManualClock();
    time = new MediaTime(10, clock);
    const ran: string[] = [];
    const cancel = time.after(50, () => ran.push('cancelled'));
    time.after(60_000, () => ran.push('stopped'));
    time.after(20, () => ran.push('ran'));
    cancel();
    clock.advance(2);
    expect(ran).toEqual(['ran']);
    clock.advance(3); // the cancelled timer's 5 ms
    time.stop();
    time.after(1, () => ran.push('after stop'));
    clock.advance(6_000);
    expect(ran).toEqual(['ran']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('sleep resolves after its media time, or at once when aborted', async () => {
    const clock = new ManualClock();
    time = new MediaTime(10, clock);
    let woke = false;
    const slept = time.sleep(100).then(() => (woke = true));
    clock.advance(9);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advance(1);
    await slept;
    expect(time.now()).toBe(100);
    const abort = new AbortController();
    const aborted = time.sleep(60_000, abort.signal);
    abort.abort();
    await aborted;
    expect(time.now()).toBe(100);
    expect(clock.pendingTimers).toBe(0);
  });
});
