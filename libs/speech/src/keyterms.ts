/**
 * Keyterms travel in the connection URL (Deepgram `keyterm`, AssemblyAI `keyterms_prompt`), and servers cap a
 * request line at 8-16 KB: an agent's 50 terms of 64 Devanagari characters would be ~29 KB encoded. The terms
 * kept are the first ones (the transcriber's own before its dictionaries') whose encoded length fits.
 */
export const MAX_KEYTERM_QUERY_CHARS = 4000;

/** The first terms whose URL-encoded length (plus a separator each) fits in `maxChars`; blanks dropped. */
export function keytermsForUrl(terms: readonly string[] = [], maxChars = MAX_KEYTERM_QUERY_CHARS): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const raw of terms) {
    const term = raw.trim();
    if (!term) continue;
    const cost = encodeURIComponent(term).length + 12;
    if (used + cost > maxChars) break;
    used += cost;
    kept.push(term);
  }
  return kept;
}
