import { MediaTime } from './media-time';

describe('MediaTime', () => {
  let time: MediaTime;

  afterEach(() => time?.stop());

  it('never runs a timer before its media time, at a scale that makes its wall delay fractional', async () => {
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

  it('a cancelled timer does not run, nor does any timer once stopped', async () => {
    time = new MediaTime(10);
    const ran: string[] = [];
    const cancel = time.after(50, () => ran.push('cancelled'));
    time.after(60_000, () => ran.push('stopped'));
    time.after(20, () => ran.push('ran'));
    cancel();
    while (!ran.includes('ran')) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20)); // past the cancelled timer's 5 ms
    time.stop();
    time.after(1, () => ran.push('after stop'));
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toEqual(['ran']);
  });

  it('sleep resolves after its media time, or at once when aborted', async () => {
    time = new MediaTime(10);
    const start = time.now();
    await time.sleep(100);
    expect(time.now() - start).toBeGreaterThanOrEqual(100);
    const abort = new AbortController();
    const slept = time.sleep(60_000, abort.signal);
    abort.abort();
    await slept;
    expect(time.now() - start).toBeLessThan(60_000);
  });
});
