import { MAX_PLAN_KEYTERMS } from '@vap/messages';
import { MAX_PLAN_PRONUNCIATIONS, termsOf } from './dictionary-terms';

describe('dictionary terms for a call', () => {
  it('boosts every word once, in order, and says the ones with an alias or IPA', () => {
    expect(
      termsOf([
        { word: 'Ravigo', alias: 'ruh vee go' },
        { word: 'Acme' },
        { word: 'ravigo', ipa: 'ɹəˈviːɡoʊ' },
        { word: 'Nguyen', ipa: 'ŋwiən', alias: 'win' },
      ]),
    ).toEqual({
      keyterms: ['Ravigo', 'Acme', 'Nguyen'],
      pronunciations: [
        { word: 'Ravigo', alias: 'ruh vee go' },
        { word: 'Nguyen', alias: 'win', ipa: 'ŋwiən' },
      ],
    });
  });

  it('keeps at most MAX_PLAN_KEYTERMS keyterms and MAX_PLAN_PRONUNCIATIONS pronunciations', () => {
    const entries = Array.from({ length: 2500 }, (_, i) => ({ word: `word${i}`, alias: `alias ${i}` }));
    const { keyterms, pronunciations } = termsOf(entries);
    expect(keyterms).toHaveLength(MAX_PLAN_KEYTERMS);
    expect(keyterms[0]).toBe('word0');
    expect(pronunciations).toHaveLength(MAX_PLAN_PRONUNCIATIONS);
  });

  it('has nothing for no entries', () => {
    expect(termsOf([])).toEqual({ keyterms: [], pronunciations: [] });
  });
});
