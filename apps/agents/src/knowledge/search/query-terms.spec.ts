import { splitQueryTerms } from './query-terms';

describe('splitQueryTerms', () => {
  it('separates excluded words and phrases from the rest', () => {
    expect(splitQueryTerms('refund policy -shipping')).toEqual({
      positive: 'refund policy',
      negative: 'shipping',
    });
    expect(splitQueryTerms('-"gift card" refund -voucher')).toEqual({
      positive: 'refund',
      negative: '"gift card" or voucher',
    });
  });

  it('leaves hyphenated words and plain queries alone', () => {
    expect(splitQueryTerms('e-mail re-order policy')).toEqual({
      positive: 'e-mail re-order policy',
      negative: '',
    });
    expect(splitQueryTerms('  "next day" delivery ')).toEqual({
      positive: '"next day" delivery',
      negative: '',
    });
  });
});
