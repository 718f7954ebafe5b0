import { ManualClock } from './manual-clock';
import { SystemClock } from './system-clock';

describe('ManualClock', () => {
  it('moves only when advanced, running due timers in due order at their own instants', () => {
    const clock = new ManualClock(new Date('2027-01-01T00:00:00Z'));
    const seen: string[] = [];
    clock.setTimer(300, () => seen.push(`b@${clock.now().toISOString()}`));
    clock.setTimer(100, () => {
      seen.push(`a@${clock.now().toISOString()}`);
      // Set while advancing and due within the same advance: it runs too.
      clock.setTimer(50, () => seen.push(`a2@${clock.monotonicMs()}`));
    });
    const cancel = clock.setTimer(200, () => seen.push('cancelled'));
    cancel();

    clock.advance(99);
    expect(seen).toEqual([]);
    clock.advance(301);

    expect(seen).toEqual(['a@2027-01-01T00:00:00.100Z', 'a2@150', 'b@2027-01-01T00:00:00.300Z']);
    expect(clock.now().toISOString()).toBe('2027-01-01T00:00:00.400Z');
    expect(clock.monotonicMs()).toBe(400);
    expect(clock.pendingTimers).toBe(0);
  });

  it('jumps the wall instant with set() without touching timers', () => {
    const clock = new ManualClock(new Date('2027-01-01T00:00:00Z'));
    let fired = false;
    clock.setTimer(10, () => (fired = true));
    clock.set(new Date('2027-03-14T06:55:00Z'));
    expect(fired).toBe(false);
    expect(clock.now().toISOString()).toBe('2027-03-14T06:55:00.000Z');
    clock.advance(10);
    expect(fired).toBe(true);
  });
});

describe('SystemClock', () => {
  it('reads the wall clock, or runs on from a given start instant', () => {
    const before = Date.now();
    expect(new SystemClock().now().getTime()).toBeGreaterThanOrEqual(before);
    const started = new SystemClock(new Date('2027-03-14T06:55:00Z')).now().getTime();
    expect(started - Date.parse('2027-03-14T06:55:00Z')).toBeGreaterThanOrEqual(0);
    expect(started - Date.parse('2027-03-14T06:55:00Z')).toBeLessThan(1000);
  });
});
