import { canonicalJson, splitStartCommand } from './start-call-keys';

describe('Idempotency-Key of a start-call command', () => {
  const body = { agent_id: 'a', to_number: '+919876543210', variables: { b: 1, a: { y: [1, 2], x: null } } };

  it('hashes the body whatever its key order, and not the key itself', () => {
    const a = splitStartCommand({ ...body, idempotency_key: 'k1' });
    const reordered = splitStartCommand({
      idempotency_key: 'k2',
      variables: { a: { x: null, y: [1, 2] }, b: 1 },
      to_number: '+919876543210',
      agent_id: 'a',
    });
    expect(a.input).toEqual(body);
    expect(a.key!.key).toBe('k1');
    expect(reordered.key!.hash).toBe(a.key!.hash);
    expect(
      splitStartCommand({ ...body, to_number: '+919876543211', idempotency_key: 'k1' }).key!.hash,
    ).not.toBe(a.key!.hash);
    expect(
      splitStartCommand({ ...body, variables: { b: 1, a: { y: [2, 1], x: null } }, idempotency_key: 'k1' })
        .key!.hash,
    ).not.toBe(a.key!.hash);
  });

  it('has no key without one, and drops absent values from the canonical form', () => {
    expect(splitStartCommand(body).key).toBeNull();
    expect(canonicalJson({ b: 'x', a: 1, c: undefined })).toBe('{"a":1,"b":"x"}');
  });
});
