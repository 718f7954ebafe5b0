// Answer markup is built from values the platform does not fully control (stream URLs with tokens, call
// parameters), so every attribute value and text node is escaped.

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // Parsers normalise raw whitespace in attribute values to spaces; character references keep it.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Escapes text for an XML attribute value (either quote style) or element text. */
export function escapeXml(value: string): string {
  // Characters XML 1.0 cannot carry at all are refused rather than silently dropped.
  for (let i = 0; i < value.length; i++) {
    if (!isXmlChar(value.charCodeAt(i))) throw new RangeError('value holds a character XML cannot carry');
  }
  return value.replace(/[&<>"'\t\n\r]/g, (char) => XML_ESCAPES[char]);
}

/** XML 1.0 allows tab, newline and carriage return among the C0 controls, and not U+FFFE / U+FFFF. */
function isXmlChar(code: number): boolean {
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
  return code !== 0xfffe && code !== 0xffff;
}
