/** Longest text indexed per document (about 2 500 chunks); the rest of a huge document is not searchable. */
export const MAX_INDEXED_CHARS = 2_000_000;

/**
 * Cleans extracted text for chunking and storage: no NUL or other control characters (Postgres text
 * refuses NUL), Unix newlines, single spaces, at most one blank line between paragraphs.
 */
export function normalizeText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, ' ')
      .replace(/[\t\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, ' ')
      .replace(/ {2,}/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
      .slice(0, MAX_INDEXED_CHARS)
  );
}
