import { canonicalJson, requestHash } from './request-hash';

describe('requestHash', () => {
  it('ignores key order, not values, method or path', () => {
    const a = requestHash('POST', '/api/v2/calls/start', { b: 1, a: { y: [1, 2], x: null } });
    expect(requestHash('post', '/api/v2/calls/start', { a: { x: null, y: [1, 2] }, b: 1 })).toBe(a);
    expect(requestHash('POST', '/api/v2/calls/start', { a: { x: null, y: [2, 1] }, b: 1 })).not.toBe(a);
    expect(requestHash('PUT', '/api/v2/calls/start', { b: 1, a: { y: [1, 2], x: null } })).not.toBe(a);
    expect(canonicalJson({ b: 'x', a: 1 })).toBe('{"a":1,"b":"x"}');
  });
});
