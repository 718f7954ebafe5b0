import { AppError } from '@vap/messages';
import { untilAcknowledged } from './until-acknowledged';

describe('untilAcknowledged', () => {
  it('tries again after a failure of the far side (no responder, timeout, 5xx) until the answer comes', async () => {
    const failures = [new Error('no responders'), AppError.downstream()];
    const retried: number[] = [];
    const answer = await untilAcknowledged(
      async () => {
        const failure = failures.shift();
        if (failure) throw failure;
        return 'ok';
      },
      { deadline: Date.now() + 5000, retryDelayMs: 1, onRetry: (attempt) => retried.push(attempt) },
    );
    expect(answer).toBe('ok');
    expect(retried).toEqual([1, 2]);
  });

  it('takes a refusal (below 500) as final at once', async () => {
    let attempts = 0;
    const send = async () => {
      attempts++;
      throw AppError.notFound('Call');
    };
    await expect(untilAcknowledged(send, { deadline: Date.now() + 5000, retryDelayMs: 1 })).rejects.toThrow(
      AppError,
    );
    expect(attempts).toBe(1);
  });

  it('gives up with the last failure once the next attempt would start after the deadline', async () => {
    let attempts = 0;
    const started = Date.now();
    const send = async () => {
      attempts++;
      throw new Error(`down ${attempts}`);
    };
    await expect(
      untilAcknowledged(send, { deadline: started + 100, retryDelayMs: 20, maxDelayMs: 40 }),
    ).rejects.toThrow(/^down \d+$/);
    expect(Date.now() - started).toBeLessThan(1000);
    // 20 + 40 + 40 ms of waits fit in 100 ms at most: a first attempt and at most three more.
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(attempts).toBeLessThanOrEqual(4);
  });
});
