import { CarrierClock } from './carrier-clock';

describe('CarrierClock', () => {
  it('ticks every period on a schedule from its start, for every subscriber, until unsubscribed', async () => {
    const clock = new CarrierClock(10);
    const a: number[] = [];
    const b: number[] = [];
    const stopA = clock.subscribe(() => a.push(performance.now()));
    clock.subscribe((index) => b.push(index));
    clock.start();
    await new Promise((resolve) => setTimeout(resolve, 205));
    stopA();
    const seenByA = a.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    clock.stop();
    expect(a.length).toBe(seenByA);
    expect(b.length).toBeGreaterThan(seenByA);
    // Schedule from the start: 20 periods in 200 ms however late single timers fire.
    expect(seenByA).toBeGreaterThanOrEqual(18);
    expect(seenByA).toBeLessThanOrEqual(22);
    expect(b.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('skips the slots a blocked event loop missed instead of bursting them, and counts the stall', async () => {
    const clock = new CarrierClock(10);
    const indexes: number[] = [];
    let blocked = false;
    clock.subscribe((index) => {
      indexes.push(index);
      if (!blocked && index === 2) {
        blocked = true;
        const until = performance.now() + 60;
        while (performance.now() < until);
      }
    });
    clock.start();
    await new Promise((resolve) => setTimeout(resolve, 150));
    clock.stop();
    expect(clock.stalls).toBeGreaterThanOrEqual(1);
    const jump = indexes.findIndex((v, i) => i > 0 && v - indexes[i - 1] > 1);
    expect(jump).toBeGreaterThan(0);
    expect(indexes[jump] - indexes[jump - 1]).toBeGreaterThanOrEqual(4);
  });
});
