import { attemptOutcome, retryDelayMinutes, RetryPolicy } from './attempt-outcome';

const policy: RetryPolicy = { retry_count: 3, retry_delays_minutes: [1, 5], cooldown_minutes: 2 };

describe('attempt outcome', () => {
  it('completes a contact whose call completed', () => {
    expect(attemptOutcome('completed', 1, policy)).toEqual({ kind: 'final', status: 'completed' });
  });

  it('retries failed, busy and no_answer while retries are left, then fails the contact', () => {
    expect(attemptOutcome('busy', 1, policy)).toEqual({ kind: 'retry', waitMinutes: 2 });
    expect(attemptOutcome('no_answer', 2, policy)).toEqual({ kind: 'retry', waitMinutes: 5 });
    expect(attemptOutcome('failed', 3, policy)).toEqual({ kind: 'retry', waitMinutes: 5 });
    expect(attemptOutcome('failed', 4, policy)).toEqual({ kind: 'final', status: 'failed' });
    expect(attemptOutcome('busy', 1, { ...policy, retry_count: 0 })).toEqual({
      kind: 'final',
      status: 'failed',
    });
  });

  it('skips a contact whose call was canceled', () => {
    expect(attemptOutcome('canceled', 1, policy)).toEqual({ kind: 'final', status: 'skipped' });
  });

  it('repeats the last delay and treats no delays as zero', () => {
    expect([1, 2, 3, 4].map((r) => retryDelayMinutes(policy, r))).toEqual([1, 5, 5, 5]);
    expect(retryDelayMinutes({ ...policy, retry_delays_minutes: [] }, 2)).toBe(0);
  });
});
