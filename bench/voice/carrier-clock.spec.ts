import { CarrierClock } from './carrier-clock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CarrierClock', () => {
  it('numbers its ticks by period slots since its start, for every subscriber, until unsubscribed', async () => {
    const clock = new CarrierClock(10);
    const a: number[] = [];
    const b: number[] = [];
    const stopA = clock.subscribe((index) => a.push(index));
    clock.subscribe((index) => b.push(index));
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
    expect(b[0]).toBe(0);
    expect(b.every((index, i) => i === 0 || index > b[i - 1])).toBe(true);
    // The slot is time since the start over the period, however late single timers fired: 20 slots in 200 ms.
    const last = a[a.length - 1];
    expect(last).toBeGreaterThanOrEqual(Math.floor(elapsed / 10) - 2);
    expect(last).toBeLessThanOrEqual(Math.floor(elapsed / 10));
  });

  it('skips the slots a blocked event loop missed instead of bursting them, and counts the stall', async () => {
    const clock = new CarrierClock(10);
    const indexes: number[] = [];
    let blocked = false;
    clock.subscribe((index) => {
      indexes.push(index);
      if (!blocked && index >= 2) {
        blocked = true;
        const until = performance.now() + 60;
        while (performance.now() < until);
      }
    });
    clock.start();
    await sleep(150);
    clock.stop();
    expect(clock.stalls).toBeGreaterThanOrEqual(1);
    const jump = indexes.findIndex((v, i) => i > 0 && v - indexes[i - 1] >= 4);
    expect(jump).toBeGreaterThan(0);
  });
});
