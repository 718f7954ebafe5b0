import { HealthEvent, HealthThrottle } from './health-throttle';

const C1 = '3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11';
const C2 = '6d0b3f0c-6a0e-4a8e-9a55-0d7f4c1f2b11';
const WINDOW = 5_000;

describe('HealthThrottle', () => {
  let clock: number;
  let writes: { connectionId: string; event: HealthEvent }[];
  let errors: unknown[];
  let throttle: HealthThrottle;

  const success = (operation: string): HealthEvent => ({ kind: 'success', at: new Date(clock), operation });
  const advance = (ms: number) => {
    clock += ms;
    jest.advanceTimersByTime(ms);
  };

  beforeEach(() => {
    jest.useFakeTimers();
    clock = 1_000_000;
    writes = [];
    errors = [];
    throttle = new HealthThrottle(
      WINDOW,
      async (connectionId, event) => {
        writes.push({ connectionId, event });
      },
      (err) => errors.push(err),
      () => clock,
    );
  });

  afterEach(() => jest.useRealTimers());

  it('writes the first event of a connection at once', () => {
    throttle.record(C1, success('POST /Calls.json'));
    expect(writes).toEqual([{ connectionId: C1, event: success('POST /Calls.json') }]);
  });

  it('writes a busy connection once per window, with the latest event of the window', () => {
    throttle.record(C1, success('POST /Calls.json'));
    for (let i = 0; i < 100; i++) {
      advance(10);
      throttle.record(C1, success(`GET /Calls/{id}.json #${i}`));
    }
    expect(writes).toHaveLength(1);
    advance(WINDOW);
    expect(writes).toHaveLength(2);
    expect(writes[1].event).toMatchObject({ operation: 'GET /Calls/{id}.json #99' });
    // Nothing more came: no further write.
    advance(WINDOW * 3);
    expect(writes).toHaveLength(2);
  });

  it('writes at once again after a quiet window', () => {
    throttle.record(C1, success('a'));
    advance(WINDOW);
    throttle.record(C1, success('b'));
    expect(writes.map((w) => (w.event as { operation: string }).operation)).toEqual(['a', 'b']);
  });

  it('throttles each connection and each kind on its own', () => {
    throttle.record(C1, success('a'));
    throttle.record(C2, success('b'));
    throttle.record(C1, { kind: 'callback', at: new Date(clock) });
    throttle.record(C1, {
      kind: 'failure',
      at: new Date(clock),
      operation: 'POST /Calls.json',
      status: 401,
      reason: 'credentials_rejected',
    });
    expect(writes.map((w) => `${w.connectionId}:${w.event.kind}`)).toEqual([
      `${C1}:success`,
      `${C2}:success`,
      `${C1}:callback`,
      `${C1}:failure`,
    ]);
  });

  it('writes what is pending on close', async () => {
    throttle.record(C1, success('a'));
    throttle.record(C1, success('b'));
    expect(writes).toHaveLength(1);
    await throttle.close();
    expect(writes.map((w) => (w.event as { operation: string }).operation)).toEqual(['a', 'b']);
  });

  it('reports a failed write and keeps recording', async () => {
    const failing = new HealthThrottle(
      WINDOW,
      () => Promise.reject(new Error('database down')),
      (err) => errors.push(err),
      () => clock,
    );
    failing.record(C1, success('a'));
    await failing.close();
    expect(errors).toEqual([new Error('database down')]);
    advance(WINDOW);
    failing.record(C1, success('b'));
    await failing.close();
    expect(errors).toHaveLength(2);
  });
});
