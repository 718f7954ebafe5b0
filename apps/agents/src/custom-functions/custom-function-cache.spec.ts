import { CUSTOM_FUNCTION_CACHE_TTL_MS, CustomFunctionCache } from './custom-function-cache';
import { CustomFunction } from './entities/custom-function.entity';

// What the cache decides on its own; the notice between replicas is covered end to end
// (e2e/src/agents/custom-function-cache.e2e-spec.ts).
describe('CustomFunctionCache', () => {
  const row = (id: string, partnerId = 'p1') => Object.assign(new CustomFunction(), { id, partnerId });
  // Nothing here reaches NATS: only forgetEverywhere() and the bootstrap subscription use it.
  const cache = () => new CustomFunctionCache(null as never);

  afterEach(() => jest.useRealTimers());

  it('answers a kept row to its own partner only', () => {
    const c = cache();
    c.set(row('fn_1'), c.version);
    expect(c.get('p1', 'fn_1')?.id).toBe('fn_1');
    expect(c.get('p2', 'fn_1')).toBeNull();
    expect(c.get('p1', 'fn_2')).toBeNull();
  });

  it('does not keep a row read before a forget', () => {
    const c = cache();
    const readAt = c.version;
    c.forget('fn_other');
    c.set(row('fn_1'), readAt);
    expect(c.get('p1', 'fn_1')).toBeNull();
  });

  it('drops a forgotten row, and any row after its TTL', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const c = cache();
    c.set(row('fn_1'), c.version);
    c.set(row('fn_2'), c.version);
    c.forget('fn_1');
    expect(c.get('p1', 'fn_1')).toBeNull();
    expect(c.get('p1', 'fn_2')).not.toBeNull();
    jest.setSystemTime(1_000_000 + CUSTOM_FUNCTION_CACHE_TTL_MS);
    expect(c.get('p1', 'fn_2')).toBeNull();
  });
});
