import { parseDuration, parseDurationList } from './duration';

describe('durations', () => {
  it('reads ms, s, m, h, d and bare seconds', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('10s')).toBe(10_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('5d')).toBe(432_000_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('3')).toBe(3000);
    expect(parseDuration('soon')).toBeNull();
  });

  it('reads schedules; one bad entry refuses the list', () => {
    expect(parseDurationList('5s, 5m,30m')).toEqual([5000, 300_000, 1_800_000]);
    expect(parseDurationList('')).toEqual([]);
    expect(parseDurationList('5s,x')).toBeNull();
  });
});
