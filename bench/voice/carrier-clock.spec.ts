import { CarrierClock } from './carrier-clock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CarrierClock', () => {
  it('numbers its ticks by period slots since its start, for every subscriber, until unsubscribed', async () => {
    const clock = new CarrierClock(10);
    const a: number[] = [];
    const b: number[] = [];
    const stopA = clock.subscribe((index) => a.push(index));
    let firstAt = 0;
    clock.subscribe((index) => {
      firstAt ||= performance.now();
      b.push(index);
    });
    const started = performance.now();
    clock.start();
    await sleep(200);
    stopA();
    const elapsed = performance.now() - started;
    const seenByA = a.length;
    await sleep(50);
    clock.stop();
    expect(a.length).toBe(seenByA);
    expect(b.length).toBeGreaterThan(seenByA);
    // Both listeners share one numbering. The first slot is 0 unless a loaded machine made the first timer miss
    // a whole period, which the clock skips (the next test) instead of bursting; a skipped start still numbers
    // the first tick by the time it came.
    expect(b.slice(0, a.length)).toEqual(a);
    if (clock.stalls === 0) expect(b[0]).toBe(0);
    else expect(b[0]).toBeLessThanOrEqual(Math.floor((firstAt - started) / 10) + 1);
    expect(b.every((index, i) => i === 0 || index > b[i - 1])).toBe(true);
    // The slot is time since the start over the period, however late single timers fired: 20 slots in 200 ms.
    // Node's timers run on a millisecond clock and may fire up to 1 ms before performance.now() says they are
    // due, so the slot just ahead of the elapsed time may already have ticked.
    const last = a[a.length - 1];
    expect(last).toBeGreaterThanOrEqual(Math.floor(elapsed / 10) - 2);
    expect(last).toBeLessThanOrEqual(Math.floor(elapsed / 10) + 1);
  });

  it('skips the slots a blocked event loop missed instead of bursting them, and counts the stall', async () => {
    const clock = new CarrierClock(10);
    const indexes: number[] = [];
    let blocked = false;
    let blockedAt = -1;
    clock.subscribe((index) => {
      indexes.push(index);
      if (!blocked && index >= 2) {
        blocked = true;
        blockedAt = indexes.length - 1;
        const until = performance.now() + 60;
        while (performance.now() < until);
      }
    });
    clock.start();
    // Until a slot after the block has ticked (a loaded machine may take longer than a fixed wait to get there).
    const deadline = performance.now() + 5000;
    while ((blockedAt < 0 || indexes.length <= blockedAt + 1) && performance.now() < deadline)
      await sleep(10);
    clock.stop();
    expect(clock.stalls).toBeGreaterThanOrEqual(1);
    const jump = indexes.findIndex((v, i) => i > 0 && v - indexes[i - 1] >= 4);
    expect(jump).toBeGreaterThan(0);
  });

  it('serves each phase its offset into the period, once a period', async () => {
    const clock = new CarrierClock(20, 1);
    expect(clock.phaseCount).toBe(20);
    const at: Record<number, number[]> = { 0: [], 7: [], 13: [] };
    const origin = performance.now();
    for (const phase of [0, 7, 13]) clock.subscribe(() => at[phase].push(performance.now() - origin), phase);
    clock.start();
    // Eight periods, or more on a loaded machine (a stalled clock skips whole periods rather than bursting).
    const deadline = performance.now() + 5000;
    while ([0, 7, 13].some((phase) => at[phase].length < 8) && performance.now() < deadline) await sleep(20);
    clock.stop();
    for (const phase of [0, 7, 13]) {
      const times = at[phase];
      expect(times.length).toBeGreaterThanOrEqual(8);
      // Each fires on its own offset: slot n of its phase is due at n * 20 + phase ms (timers only run late).
      times.forEach((t, n) => expect(t).toBeGreaterThanOrEqual(n * 20 + phase - 1));
    }
    // Phase 7 runs between phase 0 and phase 13 of the same period, unless a loaded machine stalled the clock
    // for a whole period, which it then skips (see the previous test) and the phases no longer line up by index.
    if (clock.stalls === 0) {
      expect(at[7][3]).toBeGreaterThan(at[0][3]);
      expect(at[13][3]).toBeGreaterThan(at[7][3]);
    }
  });
});
