import { maskIdentifier } from './mask';

describe('maskIdentifier', () => {
  it('keeps only the ends of an identifier', () => {
    expect(maskIdentifier('MAXXXXXXXXXXXXXXXX12')).toBe('MAXX************XX12');
    expect(maskIdentifier('AC1234567')).toBe('AC*****67');
    expect(maskIdentifier('abcd')).toBe('****');
  });

  it('never shows the middle of the value', () => {
    const id = 'AC0123456789abcdef0123456789abcdef';
    const masked = maskIdentifier(id);
    expect(masked).toHaveLength(id.length);
    expect(masked).not.toContain('456789abcdef');
  });

  it('never splits a character outside the BMP into a lone surrogate', () => {
    // Ten characters, five of them a surrogate pair each: the two at either end stay whole.
    expect(maskIdentifier('𔑑𝔻ᡲ𛁈ｙ𒔳〒𘫾Ꮬ𐍗')).toBe('𔑑𝔻******Ꮬ𐍗');
  });
});
