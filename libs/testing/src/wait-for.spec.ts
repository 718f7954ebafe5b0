import { waitFor } from './wait-for';

describe('waitFor', () => {
  it('returns the first truthy value of the condition', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : undefined), { intervalMs: 5 });
    expect(value).toEqual({ calls: 3 });
  });

  it('awaits async conditions and treats a rejection as "not yet"', async () => {
    let calls = 0;
    const value = await waitFor(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('not up yet');
        return 'up';
      },
      { intervalMs: 5 },
    );
    expect(value).toBe('up');
  });

  it('times out with the description and the last error', async () => {
    const started = Date.now();
    await expect(
      waitFor(
        () => {
          throw new Error('connection refused');
        },
        { timeoutMs: 150, intervalMs: 20, description: 'the gateway' },
      ),
    ).rejects.toThrow('timed out after 150 ms waiting for the gateway (last error: connection refused)');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1000);
  });

  it('stops early when its signal is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 30);
    await expect(
      waitFor(() => false, { timeoutMs: 5000, intervalMs: 10, signal: controller.signal }),
    ).rejects.toThrow('cancelled');
  });
});
