// How a dictionary's pronunciations reach a provider that takes plain text (the alias is spoken instead of the
// word) or a provider's SSML subset (a phoneme tag for the entries with IPA).
import type { Pronunciation } from './tts-provider';

/** A word as a whole-word, case-insensitive pattern (its regex characters escaped). */
function wordPattern(word: string): RegExp {
  const escaped = word.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Letters, marks (Indic vowel signs) and digits of any script bound a word; \b knows only ASCII.
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])${escaped}(?![\\p{L}\\p{M}\\p{N}_])`, 'giu');
}

/** What a dictionary entry becomes in the text (the matched word is passed in), or undefined to leave it. */
type Rewrite = (entry: Pronunciation, matched: string) => string | undefined;

/**
 * Rewrites the dictionary's words in one pass, longest entries first (so "New Delhi" wins over "Delhi"), with
 * the text between them passed through `plain` (an escaper for markup, or nothing). Text a rewrite produced is
 * never matched again.
 */
function rewriteWords(
  text: string,
  pronunciations: readonly Pronunciation[],
  rewrite: Rewrite,
  plain: (text: string) => string = (t) => t,
): string {
  const entries = pronunciations
    .filter((p) => p.word.trim())
    .sort((a, b) => b.word.trim().length - a.word.trim().length);
  if (entries.length === 0) return plain(text);
  // One alternation of every entry, so the first match at each position is the longest entry.
  const combined = new RegExp(entries.map((e) => `(${wordPattern(e.word).source})`).join('|'), 'giu');
  let out = '';
  let at = 0;
  for (const match of text.matchAll(combined)) {
    const index = match.slice(1).findIndex((group) => group !== undefined);
    const replacement = rewrite(entries[index], match[0]);
    if (replacement === undefined) continue;
    out += plain(text.slice(at, match.index)) + replacement;
    at = match.index + match[0].length;
  }
  return out + plain(text.slice(at));
}

/** The text with each dictionary word that has an alias replaced by its alias (whole words, any case). */
export function substituteAliases(text: string, pronunciations: readonly Pronunciation[] = []): string {
  const aliased = pronunciations.filter((p) => p.alias?.trim());
  return rewriteWords(text, aliased, (entry) => entry.alias?.trim());
}

/** Text made safe inside XML (SSML) markup. */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
}

/**
 * The text as SSML-parsed input (no `<speak>` root): entries with IPA become `<phoneme alphabet="ipa" ph="...">`
 * around the word as written, entries with only an alias are replaced by it, and everything else is escaped.
 */
export function phonemeMarkup(text: string, pronunciations: readonly Pronunciation[] = []): string {
  const usable = pronunciations.filter((p) => p.ipa?.trim() || p.alias?.trim());
  return rewriteWords(
    text,
    usable,
    (entry, matched) => {
      const ipa = entry.ipa?.trim();
      if (ipa) return `<phoneme alphabet="ipa" ph="${escapeXml(ipa)}">${escapeXml(matched)}</phoneme>`;
      const alias = entry.alias?.trim();
      return alias ? escapeXml(alias) : undefined;
    },
    escapeXml,
  );
}
