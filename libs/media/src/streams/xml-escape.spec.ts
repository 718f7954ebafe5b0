import { escapeXml } from './xml-escape';

describe('escapeXml', () => {
  it('escapes markup characters and both quote styles', () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
  });

  it('keeps whitespace as character references so attribute values survive normalisation', () => {
    expect(escapeXml('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d');
  });

  it('leaves plain text and non-ASCII alone', () => {
    expect(escapeXml('wss://media.example.com/media/x?token=abc')).toBe(
      'wss://media.example.com/media/x?token=abc',
    );
    expect(escapeXml('Zoë — 東京')).toBe('Zoë — 東京');
  });

  it('refuses characters XML cannot carry', () => {
    expect(() => escapeXml('a\u0000b')).toThrow(RangeError);
    expect(() => escapeXml('a\u001bb')).toThrow(RangeError);
    expect(() => escapeXml('a\uffffb')).toThrow(RangeError);
  });
});
