import { nextRetryDelay, parseRetryAfter, RetryPolicyOptions } from './retry-policy';

const options: RetryPolicyOptions = {
  schedule: [5_000, 300_000, 1_800_000],
  jitter: 0.2,
  retryAfterMaxMs: 3_600_000,
  random: () => 0.5, // no jitter
};
const plain = { statusCode: 500, timedOut: false, retryAfterMs: null };

describe('nextRetryDelay', () => {
  it('follows the schedule and stops after its last entry', () => {
    expect(nextRetryDelay(1, plain, options)).toBe(5_000);
    expect(nextRetryDelay(2, plain, options)).toBe(300_000);
    expect(nextRetryDelay(3, plain, options)).toBe(1_800_000);
    expect(nextRetryDelay(4, plain, options)).toBeNull();
  });

  it('spreads delays by the jitter, both ways', () => {
    expect(nextRetryDelay(1, plain, { ...options, random: () => 0 })).toBe(4_000);
    expect(nextRetryDelay(1, plain, { ...options, random: () => 1 })).toBe(6_000);
  });

  it('waits twice as long after a 429 or a timeout', () => {
    expect(nextRetryDelay(1, { ...plain, statusCode: 429 }, options)).toBe(10_000);
    expect(nextRetryDelay(1, { statusCode: null, timedOut: true, retryAfterMs: null }, options)).toBe(10_000);
  });

  it('honours a longer Retry-After within the bound, never a shorter one', () => {
    expect(nextRetryDelay(1, { ...plain, statusCode: 503, retryAfterMs: 60_000 }, options)).toBe(60_000);
    expect(nextRetryDelay(1, { ...plain, statusCode: 503, retryAfterMs: 1_000 }, options)).toBe(5_000);
    expect(nextRetryDelay(1, { ...plain, statusCode: 429, retryAfterMs: 86_400_000 }, options)).toBe(
      3_600_000,
    );
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter(['7'], now)).toBe(7_000);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
