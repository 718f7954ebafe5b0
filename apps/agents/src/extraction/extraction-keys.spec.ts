import { keyClashes, normalizeKeys } from './extraction-keys';

describe('normalizeKeys', () => {
  it('defaults the description and keeps options on enum keys only', () => {
    expect(
      normalizeKeys([
        { name: 'outcome', type: 'enum', options: ['won', 'lost'] },
        { name: 'notes', type: 'string', description: 'Free notes' },
      ]),
    ).toEqual([
      { name: 'outcome', type: 'enum', options: ['won', 'lost'], description: '' },
      { name: 'notes', type: 'string', description: 'Free notes' },
    ]);
  });
});

describe('keyClashes', () => {
  it('finds names defined by two sources', () => {
    expect(
      keyClashes([
        { label: 'inline', keys: [{ name: 'a' }, { name: 'b' }] },
        { label: 'set exs_1', keys: [{ name: 'b' }, { name: 'c' }] },
        { label: 'set exs_2', keys: [{ name: 'c' }, { name: 'b' }] },
      ]),
    ).toEqual([
      { name: 'b', sources: ['inline', 'set exs_1', 'set exs_2'] },
      { name: 'c', sources: ['set exs_1', 'set exs_2'] },
    ]);
  });

  it('is empty when every name has one source', () => {
    expect(
      keyClashes([
        { label: 'inline', keys: [{ name: 'a' }] },
        { label: 'set', keys: [{ name: 'b' }] },
      ]),
    ).toEqual([]);
  });
});
