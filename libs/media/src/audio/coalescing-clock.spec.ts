import { CoalescingClock } from './coalescing-clock';
import { FrameClock } from './frame-clock';

describe('CoalescingClock', () => {
  beforeEach(() => jest.useFakeTimers({ now: 10_000 }));
  afterEach(() => jest.useRealTimers());

  const clockAt = () => new CoalescingClock({ now: () => Date.now() });

  it('runs timers due in the same millisecond on one wake-up, in due order, each at its time', () => {
    const clock = clockAt();
    const fired: [string, number][] = [];
    const at = (name: string) => () => fired.push([name, Date.now()]);
    clock.setTimer(at('c'), 20);
    clock.setTimer(at('a'), 5);
    clock.setTimer(at('b'), 5.3);
    clock.setTimer(at('d'), 20.4);
    jest.advanceTimersByTime(4);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([
      ['a', 10_005],
      ['b', 10_005],
    ]);
    jest.advanceTimersByTime(20);
    expect(fired.slice(2)).toEqual([
      ['c', 10_020],
      ['d', 10_020],
    ]);
    expect(clock.wakeUps).toBe(2);
    expect(clock.pending).toBe(0);
  });

  it('skips cleared timers and re-arms for an earlier timer set later', () => {
    const clock = clockAt();
    const fired: string[] = [];
    const late = clock.setTimer(() => fired.push('late'), 50);
    clock.setTimer(() => fired.push('early'), 3);
    clock.clearTimer(late);
    jest.advanceTimersByTime(3);
    expect(fired).toEqual(['early']);
    jest.advanceTimersByTime(100);
    expect(fired).toEqual(['early']);
  });

  it('a timer set from a callback for the slot being served waits for the next wake-up (no spin)', () => {
    const clock = clockAt();
    let runs = 0;
    const again = () => {
      runs++;
      clock.setTimer(again, 0);
    };
    clock.setTimer(again, 0);
    jest.advanceTimersByTime(0);
    expect(runs).toBe(1);
    jest.advanceTimersByTime(1);
    expect(runs).toBe(2);
    jest.advanceTimersByTime(3);
    expect(runs).toBe(5);
    jest.clearAllTimers();
  });

  it('runs the rest of a bucket when one callback throws, then rethrows its error', () => {
    const clock = clockAt();
    const fired: string[] = [];
    clock.setTimer(() => {
      throw new Error('boom');
    }, 2);
    clock.setTimer(() => fired.push('after'), 2);
    clock.setTimer(() => fired.push('next'), 4);
    expect(() => jest.advanceTimersByTime(2)).toThrow('boom');
    expect(fired).toEqual(['after']);
    jest.advanceTimersByTime(2);
    expect(fired).toEqual(['after', 'next']);
  });

  it('paces many FrameClocks, each on its own phase, with one wake-up per distinct millisecond', () => {
    const clock = clockAt();
    const sent: number[][] = [];
    const pacers = Array.from({ length: 40 }, (_, i) => {
      sent.push([]);
      return new FrameClock({ clock, send: () => sent[i].push(Date.now()) });
    });
    // Two started each millisecond: 40 phases over 20 ms.
    pacers.forEach((pacer, i) => {
      pacer.start();
      if (i % 2 === 1) jest.advanceTimersByTime(1);
    });
    const wakeUpsBefore = clock.wakeUps;
    jest.advanceTimersByTime(200);
    for (const times of sent) {
      const gaps = times.slice(1).map((t, k) => t - times[k]);
      // Every gap is a period, give or take the half millisecond of a bucket's rounding.
      expect(gaps.filter((gap) => Math.abs(gap - 20) > 1)).toEqual([]);
      expect(times.length).toBeGreaterThanOrEqual(10);
    }
    // 10 periods of 20 distinct milliseconds: 200 wake-ups for 400 frames, not one per frame.
    expect(clock.wakeUps - wakeUpsBefore).toBeLessThanOrEqual(201);
    expect(sent.flat().length).toBeGreaterThanOrEqual(440);
    for (const pacer of pacers) pacer.stop();
  });

  it('catchUp() runs the buckets already due from busy code, and only those', () => {
    let time = 10_000;
    const clock = new CoalescingClock({ now: () => time });
    const fired: string[] = [];
    clock.setTimer(() => fired.push('due'), 5);
    clock.setTimer(() => fired.push('later'), 9);
    clock.catchUp();
    expect(fired).toEqual([]);
    // The event loop is busy: the Node timer has not run, but the time has come.
    time += 5;
    clock.catchUp();
    expect(fired).toEqual(['due']);
    time += 4;
    jest.advanceTimersByTime(9);
    expect(fired).toEqual(['due', 'later']);
    expect(clock.pending).toBe(0);
  });

  it('catchUp() from inside a running callback does nothing (no re-entry)', () => {
    let time = 10_000;
    const clock = new CoalescingClock({ now: () => time });
    const fired: string[] = [];
    clock.setTimer(() => {
      time += 3;
      clock.catchUp();
      fired.push('outer');
    }, 1);
    clock.setTimer(() => fired.push('inner'), 3);
    time += 1;
    clock.catchUp();
    expect(fired).toEqual(['outer']);
    clock.catchUp();
    expect(fired).toEqual(['outer', 'inner']);
  });
});
