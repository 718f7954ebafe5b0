import { normalizeText } from './normalize-text';

describe('normalizeText', () => {
  it('removes NUL and control characters, which Postgres text cannot hold', () => {
    expect(normalizeText('a\u0000b\u0007c')).toBe('a b c');
  });

  it('normalises newlines and spaces and keeps paragraph breaks', () => {
    expect(normalizeText('  One\r\ntwo \t three\r\n\r\n\r\n\r\nFour  ')).toBe('One\ntwo three\n\nFour');
  });
});
