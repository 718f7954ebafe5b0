import { fromPairs, toPairs } from './pairs';

describe('name and value rows', () => {
  it('makes one row per entry, in order, and none without a map', () => {
    expect(toPairs({ 'X-Shop': 'north', Accept: 'application/json' })).toEqual([
      { key: 'X-Shop', value: 'north' },
      { key: 'Accept', value: 'application/json' },
    ]);
    expect(toPairs(null)).toEqual([]);
    expect(toPairs(undefined)).toEqual([]);
  });

  it('reads the rows back, names trimmed, rows without a name left out', () => {
    expect(
      fromPairs([
        { key: ' order_id ', value: ' $.id ' },
        { key: '', value: 'dropped' },
        { key: '   ', value: 'dropped too' },
        { key: 'status', value: '' },
      ]),
    ).toEqual({ order_id: ' $.id ', status: '' });
  });

  it('round-trips a map', () => {
    const map = { a: '1', b: '2' };
    expect(fromPairs(toPairs(map))).toEqual(map);
  });
});
