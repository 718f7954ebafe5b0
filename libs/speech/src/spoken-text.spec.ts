import { escapeXml, phonemeMarkup, substituteAliases } from './spoken-text';

describe('substituteAliases', () => {
  it('replaces whole words in any case, leaving words that only contain them', () => {
    expect(
      substituteAliases('ACME and acme, not Acmeville or reacme.', [{ word: 'Acme', alias: 'Ack Me' }]),
    ).toBe('Ack Me and Ack Me, not Acmeville or reacme.');
  });

  it('takes words with regex characters literally, and the longest entry where entries overlap', () => {
    const entries = [
      { word: 'C++', alias: 'C plus plus' },
      { word: 'Delhi', alias: 'Dilli' },
      { word: 'New Delhi', alias: 'Nai Dilli' },
      { word: 'a.m.', alias: 'in the morning' },
    ];
    expect(substituteAliases('C++ devs in New Delhi and Delhi at 9 a.m. or in CXX', entries)).toBe(
      'C plus plus devs in Nai Dilli and Dilli at 9 in the morning or in CXX',
    );
  });

  it('bounds words by letters of any script, and never rewrites an alias again', () => {
    expect(substituteAliases('नमस्ते दोस्त, नमस्तेजी', [{ word: 'नमस्ते', alias: 'namaste' }])).toBe(
      'namaste दोस्त, नमस्तेजी',
    );
    // A vowel sign continues a Devanagari word: नमस is not a word of नमस्ते.
    expect(substituteAliases('नमस्ते', [{ word: 'नमस', alias: 'x' }])).toBe('नमस्ते');
    // The alias contains the other entry's word: substituted text is not matched again.
    expect(
      substituteAliases('Dr. Rao', [
        { word: 'Dr.', alias: 'Doctor Rao' },
        { word: 'Rao', alias: 'Raao' },
      ]),
    ).toBe('Doctor Rao Raao');
  });

  it('leaves entries without an alias (IPA only) and the text without entries as they are', () => {
    expect(substituteAliases('A tomato.', [{ word: 'tomato', ipa: 'təˈmɑːtoʊ' }])).toBe('A tomato.');
    expect(substituteAliases('Plain text.')).toBe('Plain text.');
    expect(substituteAliases('Blank word.', [{ word: '  ', alias: 'x' }])).toBe('Blank word.');
  });
});

describe('phonemeMarkup', () => {
  it('wraps IPA entries in phoneme tags, replaces aliases and escapes the rest', () => {
    expect(
      phonemeMarkup(`Tomato & "Acme" <now>`, [
        { word: 'tomato', ipa: 'təˈmɑːtoʊ', alias: 'ignored when IPA is there' },
        { word: 'acme', alias: 'Ack & Me' },
      ]),
    ).toBe(
      '<phoneme alphabet="ipa" ph="təˈmɑːtoʊ">Tomato</phoneme> &amp; &quot;Ack &amp; Me&quot; &lt;now&gt;',
    );
  });

  it('escapes what could break out of the attribute', () => {
    expect(phonemeMarkup('x', [{ word: 'x', ipa: '"/><break time="9s' }])).toBe(
      '<phoneme alphabet="ipa" ph="&quot;/&gt;&lt;break time=&quot;9s">x</phoneme>',
    );
    expect(escapeXml(`<a href='x'>&</a>`)).toBe('&lt;a href=&apos;x&apos;&gt;&amp;&lt;/a&gt;');
  });
});
