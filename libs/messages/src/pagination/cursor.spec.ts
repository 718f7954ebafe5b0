import { decodeCursor, encodeCursor } from './cursor';

const ID = '0d7f4c1f-2b11-4a8e-9a55-3f0c6a0e6d0b';

describe('decodeCursor', () => {
  it('reads back what encodeCursor wrote, to the microsecond', () => {
    for (const t of ['2026-01-01T00:00:00.000Z', '2026-01-01T10:20:30.123456Z', '2026-01-01T10:20:30Z']) {
      expect(decodeCursor(encodeCursor({ t, id: ID }), 'uuid')).toEqual({ t, id: ID });
    }
    expect(decodeCursor(encodeCursor({ t: '2026-01-01T00:00:00.000Z', id: '42' }), 'integer')).toEqual({
      t: '2026-01-01T00:00:00.000Z',
      id: '42',
    });
    expect(decodeCursor(encodeCursor({ t: '2026-01-01T00:00:00Z', id: `cus_${ID}` }), 'prefixed')).toEqual({
      t: '2026-01-01T00:00:00Z',
      id: `cus_${ID}`,
    });
    expect(decodeCursor(undefined, 'uuid')).toBeNull();
  });

  it.each([
    ['an id that is not a UUID', { t: '2026-01-01T00:00:00.000Z', id: 'not-a-uuid' }, 'uuid'],
    ['a NUL in the id', { t: '2026-01-01T00:00:00.000Z', id: `${ID}\u0000` }, 'uuid'],
    ['a UUID where a sequence number belongs', { t: '2026-01-01T00:00:00.000Z', id: ID }, 'integer'],
    ['a prefixed id where a UUID belongs', { t: '2026-01-01T00:00:00.000Z', id: `cmp_${ID}` }, 'uuid'],
    ['an unprefixed id where a prefixed one belongs', { t: '2026-01-01T00:00:00.000Z', id: ID }, 'prefixed'],
    ['a timestamp in another format', { t: 'Tue, 01 Jan 2026 00:00:00 GMT+9999', id: ID }, 'uuid'],
    ['a day that does not exist', { t: '2026-02-30T00:00:00Z', id: ID }, 'uuid'],
    ['an hour that does not exist', { t: '2026-02-01T24:00:00Z', id: ID }, 'uuid'],
    ['parts of the wrong type', { t: 1, id: [] }, 'uuid'],
  ] as const)('refuses %s with a VALIDATION_ERROR on cursor', (_label, value, kind) => {
    expect(() => decodeCursor(encodeCursor(value as never), kind)).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ field: 'cursor' })],
      }),
    );
  });
});
