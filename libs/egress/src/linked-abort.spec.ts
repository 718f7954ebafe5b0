import { getEventListeners } from 'node:events';
import { LinkedAbortController } from './linked-abort';

describe('LinkedAbortController', () => {
  it("aborts with the parent's reason while linked", () => {
    const parent = new AbortController();
    const linked = new LinkedAbortController(parent.signal);
    parent.abort(new Error('call ended'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('call ended');
  });

  it('starts aborted under an aborted parent', () => {
    const linked = new LinkedAbortController(AbortSignal.abort('gone'));
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('gone');
  });

  it('aborts on its own without touching the parent, and leaves no listener on it', () => {
    const parent = new AbortController();
    const linked = new LinkedAbortController(parent.signal);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    linked.abort('timeout');
    expect(linked.signal.reason).toBe('timeout');
    expect(parent.signal.aborted).toBe(false);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });

  it('stops following the parent once released, so a long-lived parent collects no listeners', () => {
    const parent = new AbortController();
    for (let i = 0; i < 100; i++) new LinkedAbortController(parent.signal).release();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    const released = new LinkedAbortController(parent.signal);
    released.release();
    released.release();
    parent.abort();
    expect(released.signal.aborted).toBe(false);
  });

  it('works without a parent', () => {
    const linked = new LinkedAbortController();
    linked.release();
    linked.abort('x');
    expect(linked.signal.aborted).toBe(true);
  });
});
