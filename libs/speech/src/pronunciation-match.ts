import { literalRegExp } from '@vap/messages';
import type { Pronunciation } from './tts-provider';

/** A piece of a text: plain, or one occurrence of a dictionary word with the entry that says how to say it. */
export interface TextSegment {
  text: string;
  entry?: Pronunciation;
}

/** Letters, digits and underscore: what may not touch a word for it to count as the whole word. */
const WORD_CHAR = '[\\p{L}\\p{N}\\p{M}_]';

/**
 * Splits the text at whole-word, case-insensitive occurrences of the entries' words (only the entries `usable`
 * keeps). One pass with the longest words first, so "New York City" wins over "New York" and an alias that
 * contains another dictionary word is not substituted again.
 */
export function splitByPronunciations(
  text: string,
  entries: readonly Pronunciation[] | undefined,
  usable: (entry: Pronunciation) => boolean,
): TextSegment[] {
  const byWord = new Map<string, Pronunciation>();
  for (const entry of entries ?? []) {
    const word = entry.word.trim();
    if (word && usable(entry) && !byWord.has(word.toLowerCase())) byWord.set(word.toLowerCase(), entry);
  }
  if (!byWord.size || !text) return [{ text }];
  const words = [...byWord.keys()].sort((a, b) => b.length - a.length);
  const pattern = literalRegExp(words, {
    join: 'any',
    before: `(?<!${WORD_CHAR})`,
    after: `(?!${WORD_CHAR})`,
    flags: 'giu',
  });
  const segments: TextSegment[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const entry = byWord.get(match[0].toLowerCase());
    if (!entry) continue;
    if (match.index > at) segments.push({ text: text.slice(at, match.index) });
    segments.push({ text: match[0], entry });
    at = match.index + match[0].length;
  }
  if (at < text.length) segments.push({ text: text.slice(at) });
  return segments;
}

/**
 * The text with each dictionary word that has an alias replaced by the alias (for providers that take plain
 * text only). Entries with only an IPA spelling leave their word as written.
 */
export function substituteAliases(text: string, entries: readonly Pronunciation[] | undefined): string {
  return splitByPronunciations(text, entries, (entry) => Boolean(entry.alias?.trim()))
    .map((segment) => (segment.entry ? segment.entry.alias!.trim() : segment.text))
    .join('');
}
