import { summarize } from './summarize';

describe('summarize', () => {
  it('takes the opening sentences up to the limit', () => {
    const text =
      'Refunds take five days. Shipping is free over 500 rupees. ' + 'Filler sentence here. '.repeat(30);
    expect(summarize(text, 60)).toBe('Refunds take five days. Shipping is free over 500 rupees.');
    expect(summarize(text, 30)).toBe('Refunds take five days.');
  });

  it('cuts a first sentence longer than the limit at a word, with an ellipsis', () => {
    const s = summarize('word '.repeat(100), 30);
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(30);
    expect(s).toMatch(/^(word )*word…$/);
  });

  it('joins lines and handles empty text', () => {
    expect(summarize('Line one\ncontinues here. Next.', 300)).toBe('Line one continues here. Next.');
    expect(summarize('')).toBe('');
  });
});
