import { chunkText, DEFAULT_CHUNKING } from './chunk-text';

const sentence = (n: number) => `Sentence number ${n} talks about topic ${n} in a few plain words.`;

describe('chunkText', () => {
  it('keeps a short text in one chunk', () => {
    expect(chunkText('Hello world. Short text.')).toEqual(['Hello world. Short text.']);
    expect(chunkText('   \n\n  ')).toEqual([]);
  });

  it('makes chunks of at most 800 characters that overlap by whole sentences', () => {
    const text = Array.from({ length: 60 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(DEFAULT_CHUNKING.size);
    for (let i = 1; i < chunks.length; i++) {
      // The next chunk starts with whole sentences the previous one ended with, at most 150 characters.
      const sentences = chunks[i].split(/(?<=\.) /);
      const carried = sentences
        .map((_, k) => sentences.slice(0, k + 1).join(' '))
        .filter((prefix) => chunks[i - 1].endsWith(prefix))
        .pop();
      expect(carried).toBeDefined();
      expect(carried!.length).toBeLessThanOrEqual(DEFAULT_CHUNKING.overlap);
      expect(carried!.length).toBeGreaterThan(DEFAULT_CHUNKING.overlap - 70);
    }
    // Nothing is lost: every sentence is in some chunk.
    for (let i = 0; i < 60; i++) expect(chunks.some((c) => c.includes(sentence(i)))).toBe(true);
  });

  it('fills chunks close to the target size', () => {
    const text = Array.from({ length: 200 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkText(text);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThan(DEFAULT_CHUNKING.size - 100);
  });

  it('keeps paragraph breaks inside a chunk and prefers them as borders', () => {
    const chunks = chunkText('First paragraph.\n\nSecond paragraph.');
    expect(chunks).toEqual(['First paragraph.\n\nSecond paragraph.']);
    const a = 'A'.repeat(10) + ' ' + 'alpha '.repeat(80).trim();
    const b = 'beta '.repeat(80).trim();
    const two = chunkText(`${a}\n\n${b}`);
    expect(two[0]).toBe(a);
    expect(two[1].endsWith(b)).toBe(true);
  });

  it('cuts an overlong sentence between words, and a giant word inside', () => {
    const long = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkText(long, { size: 100, overlap: 20 });
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(100);
      expect(c).toMatch(/^w\d+( w\d+)*$/);
    }
    const giant = 'x'.repeat(250);
    const parts = chunkText(giant, { size: 100, overlap: 20 });
    expect(parts.join('')).toBe(giant);
    expect(parts.every((p) => p.length <= 100)).toBe(true);
  });

  it('refuses an overlap as large as the chunk', () => {
    expect(() => chunkText('x', { size: 10, overlap: 10 })).toThrow(RangeError);
  });
});
