import { SentenceSplitter, speakableText } from './sentence-splitter';

describe('SentenceSplitter', () => {
  it('yields each sentence as soon as it is complete, across deltas', () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('Hello the')).toEqual([]);
    expect(splitter.push('re! How are')).toEqual(['Hello there!']);
    expect(splitter.push(' you? I am')).toEqual(['How are you?']);
    expect(splitter.flush()).toEqual(['I am']);
    expect(splitter.flush()).toEqual([]);
  });

  it('does not split decimals or a dot without a following space, and splits on line breaks', () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('It costs 3.50 dollars at acme.com today')).toEqual([]);
    expect(splitter.push('\nNext line. ')).toEqual(['It costs 3.50 dollars at acme.com today', 'Next line.']);
  });

  it('cuts a very long clause at a space so TTS is not kept waiting', () => {
    const splitter = new SentenceSplitter();
    const sentences = splitter.push('word '.repeat(60));
    expect(sentences).toHaveLength(1);
    expect(sentences[0].split(' ').every((w) => w === 'word')).toBe(true);
  });

  it('drops markdown and fragments with nothing to say', () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('**Great** news! ... ')).toEqual(['Great news!']);
    expect(speakableText('- item one\n- item *two*')).toBe('item one item two');
  });
});
