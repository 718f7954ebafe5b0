import { htmlText } from './html-text';
import { decodeText, formatOfMediaType } from './extract-text';

describe('htmlText', () => {
  it('keeps the words of the page and drops scripts, styles, navigation and link targets', () => {
    const text = htmlText(`<!doctype html><html><head><title>T</title><style>p{color:red}</style>
      <script>var secret = 1;</script></head><body><nav><a href="/">Home</a> <a href="/x">Menu</a></nav>
      <h1>Refund Policy</h1><p>Refunds take <b>five days</b>. See <a href="https://example.com/terms">our terms</a>.</p>
      <img src="x.png" alt="logo"><ul><li>Item one</li><li>Item two</li></ul></body></html>`);
    expect(text).toContain('Refund Policy');
    expect(text).toContain('Refunds take five days. See our terms.');
    expect(text).toContain('Item one');
    expect(text).not.toMatch(/secret|color:red|example\.com|Menu|x\.png/);
  });
});

describe('text formats', () => {
  it('reads the media types the knowledge base can index', () => {
    expect(formatOfMediaType('text/html')).toBe('html');
    expect(formatOfMediaType('application/xhtml+xml')).toBe('html');
    expect(formatOfMediaType('application/pdf')).toBe('pdf');
    expect(formatOfMediaType('text/plain')).toBe('text');
    expect(formatOfMediaType('image/png')).toBeNull();
    expect(formatOfMediaType('application/json')).toBeNull();
  });

  it('decodes in the declared charset, falling back to UTF-8', () => {
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'iso-8859-1')).toBe('café');
    expect(decodeText(Buffer.from('café'), 'no-such-charset')).toBe('café');
    expect(decodeText(Buffer.from('\ufeffhello'))).toBe('hello');
  });
});
