/** Escapes text for an XML element or attribute. */
export function xmlEscape(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
}

export const XML_CONTENT_TYPE = 'application/xml';

export function xmlReply(body: string): { status: number; contentType: string; body: string } {
  return {
    status: 200,
    contentType: XML_CONTENT_TYPE,
    body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  };
}
