import { splitByPronunciations, substituteAliases } from './pronunciation-match';

describe('substituteAliases', () => {
  it('replaces whole words in any case, longest first, once, with regex characters taken literally', () => {
    const entries = [
      { word: 'New York', alias: 'Noo York' },
      { word: 'New York City', alias: 'the Big Apple' },
      { word: 'C++', alias: 'C plus plus' },
      { word: 'plus', alias: 'PLUS' },
      { word: 'a.b', alias: 'A dot B' },
      { word: 'only-ipa', ipa: 'ˈoʊnli' },
    ];
    expect(substituteAliases('new york city and New York; c++ vs axb, a.b, only-ipa', entries)).toBe(
      'the Big Apple and Noo York; C plus plus vs axb, A dot B, only-ipa',
    );
    // Not inside other words, including non-Latin letters.
    expect(substituteAliases('Newark, NewYork, New Yorker, नमस्ते', [{ word: 'New York', alias: 'X' }])).toBe(
      'Newark, NewYork, New Yorker, नमस्ते',
    );
    expect(substituteAliases('नमस्ते जी', [{ word: 'जी', alias: 'ji' }])).toBe('नमस्ते ji');
    expect(substituteAliases('unchanged', undefined)).toBe('unchanged');
  });

  it('splits a text into plain pieces and dictionary words that join back to the text', () => {
    const text = 'Call ACME now, acme!';
    const segments = splitByPronunciations(text, [{ word: 'acme', ipa: 'ˈækmi' }], (e) => Boolean(e.ipa));
    expect(segments.map((s) => s.text).join('')).toBe(text);
    expect(segments.filter((s) => s.entry).map((s) => s.text)).toEqual(['ACME', 'acme']);
  });
});
