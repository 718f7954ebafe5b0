// A strict reader of XML 1.0 documents, enough for SSML: what a conforming parser refuses (an unescaped & or <,
// an unknown entity, an unquoted or repeated attribute, mismatched tags, a character XML forbids, text outside
// the root) it refuses too, so a fake that parses SSML with it proves the client's escaping. No DTDs.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
    this.name = 'XmlSyntaxError';
  }
}

const NAME = /[A-Za-z_:][\w:.\-\u00B7\u00C0-\uFFFD]*/y;
const FORBIDDEN_CHAR =
  // eslint-disable-next-line no-control-regex -- matching the forbidden control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class Reader {
  private at = 0;

  constructor(private readonly xml: string) {}

  document(): XmlElement {
    const bad = FORBIDDEN_CHAR.exec(this.xml);
    if (bad)
      this.fail(`character U+${bad[0].charCodeAt(0).toString(16).toUpperCase()} is not allowed`, bad.index);
    if (this.xml.startsWith('\uFEFF')) this.at = 1;
    if (this.xml.startsWith('<?xml', this.at)) this.skipPast('?>');
    this.misc();
    if (this.xml[this.at] !== '<') this.fail('the document has no root element');
    const root = this.element();
    this.misc();
    if (this.at < this.xml.length) this.fail('content after the root element');
    return root;
  }

  /** Whitespace, comments and processing instructions around the root. */
  private misc(): void {
    for (;;) {
      this.skipSpace();
      if (this.xml.startsWith('<!--', this.at)) this.comment();
      else if (this.xml.startsWith('<?', this.at)) this.skipPast('?>');
      else if (this.xml.startsWith('<!DOCTYPE', this.at)) this.fail('DTDs are not accepted');
      else return;
    }
  }

  private element(): XmlElement {
    this.expect('<');
    const name = this.name();
    const attributes: Record<string, string> = {};
    for (;;) {
      const spaced = this.skipSpace();
      if (this.xml.startsWith('/>', this.at)) {
        this.at += 2;
        return { name, attributes, children: [] };
      }
      if (this.xml[this.at] === '>') {
        this.at++;
        break;
      }
      if (!spaced) this.fail(`expected whitespace, '>' or '/>' in <${name}>`);
      const attribute = this.name();
      this.skipSpace();
      this.expect('=');
      this.skipSpace();
      if (Object.prototype.hasOwnProperty.call(attributes, attribute)) {
        this.fail(`attribute ${attribute} appears twice`);
      }
      attributes[attribute] = this.attributeValue();
    }
    const children: XmlNode[] = [];
    for (;;) {
      if (this.at >= this.xml.length) this.fail(`<${name}> is never closed`);
      if (this.xml.startsWith('</', this.at)) {
        this.at += 2;
        const closing = this.name();
        if (closing !== name) this.fail(`</${closing}> closes <${name}>`);
        this.skipSpace();
        this.expect('>');
        return { name, attributes, children };
      }
      if (this.xml.startsWith('<!--', this.at)) this.comment();
      else if (this.xml.startsWith('<![CDATA[', this.at)) {
        const end = this.xml.indexOf(']]>', this.at + 9);
        if (end < 0) this.fail('CDATA section is never closed');
        pushText(children, this.xml.slice(this.at + 9, end));
        this.at = end + 3;
      } else if (this.xml.startsWith('<?', this.at)) this.skipPast('?>');
      else if (this.xml[this.at] === '<') children.push(this.element());
      else pushText(children, this.text());
    }
  }

  private text(): string {
    let out = '';
    while (this.at < this.xml.length && this.xml[this.at] !== '<') {
      if (this.xml[this.at] === '&') out += this.reference();
      else if (this.xml.startsWith(']]>', this.at)) this.fail("']]>' in text");
      else out += this.xml[this.at++];
    }
    return out;
  }

  private attributeValue(): string {
    const quote = this.xml[this.at];
    if (quote !== '"' && quote !== "'") this.fail('attribute value is not quoted');
    this.at++;
    let out = '';
    for (;;) {
      const c = this.xml[this.at];
      if (c === undefined) this.fail('attribute value is never closed');
      if (c === quote) {
        this.at++;
        return out;
      }
      if (c === '<') this.fail("'<' in an attribute value");
      if (c === '&') out += this.reference();
      else {
        // Attribute-value normalisation: whitespace characters become spaces.
        out += /[\t\n\r]/.test(c) ? ' ' : c;
        this.at++;
      }
    }
  }

  private reference(): string {
    const start = this.at;
    const end = this.xml.indexOf(';', this.at);
    const body = end > start ? this.xml.slice(start + 1, end) : '';
    if (!body || /[\s&<]/.test(body)) this.fail("'&' that starts no entity reference", start);
    this.at = end + 1;
    if (body.startsWith('#')) {
      const code = /^#x[0-9a-fA-F]+$/.test(body)
        ? parseInt(body.slice(2), 16)
        : /^#[0-9]+$/.test(body)
          ? parseInt(body.slice(1), 10)
          : NaN;
      const char = Number.isNaN(code) || code > 0x10ffff ? '' : String.fromCodePoint(code);
      if (!char || FORBIDDEN_CHAR.test(char) || (code >= 0xd800 && code <= 0xdfff)) {
        this.fail(`character reference &${body}; is not allowed`, start);
      }
      return char;
    }
    const value = PREDEFINED[body];
    if (value === undefined) this.fail(`unknown entity &${body};`, start);
    return value;
  }

  private comment(): void {
    const end = this.xml.indexOf('-->', this.at + 4);
    if (end < 0) this.fail('comment is never closed');
    if (this.xml.slice(this.at + 4, end).includes('--')) this.fail("'--' inside a comment");
    this.at = end + 3;
  }

  private name(): string {
    NAME.lastIndex = this.at;
    const match = NAME.exec(this.xml);
    if (!match) this.fail('expected a name');
    this.at += match[0].length;
    return match[0];
  }

  private skipSpace(): boolean {
    const start = this.at;
    while (/[ \t\r\n]/.test(this.xml[this.at] ?? '')) this.at++;
    return this.at > start;
  }

  private skipPast(end: string): void {
    const found = this.xml.indexOf(end, this.at);
    if (found < 0) this.fail(`expected '${end}'`);
    this.at = found + end.length;
  }

  private expect(c: string): void {
    if (this.xml[this.at] !== c) this.fail(`expected '${c}'`);
    this.at++;
  }

  private fail(message: string, position = this.at): never {
    throw new XmlSyntaxError(message, position);
  }
}

function pushText(children: XmlNode[], text: string): void {
  if (!text) return;
  const last = children.length - 1;
  if (typeof children[last] === 'string') children[last] += text;
  else children.push(text);
}

/** Parses one XML document; throws XmlSyntaxError where a conforming parser would refuse it. */
export function parseXml(xml: string): XmlElement {
  return new Reader(xml).document();
}

/** The element children of an element. */
export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string');
}
