// Small text rules shared by the offline engine's replies and its extraction.

const STOP_WORDS = new Set(
  'a an the is are was were be to of and or in on at for with by from this that it its as do does did has have had if whether the caller callee call customer user'.split(
    ' ',
  ),
);

/** The meaningful words of a text, lower case: no stop words, nothing under three letters. */
export function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w));
}

/** A text's sentences, whitespace collapsed. */
export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** At most `max` words, ending as a sentence: a reply that is cut still sounds finished when spoken. */
export function clipWords(text: string, max: number): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length <= max) return words.join(' ');
  return `${words
    .slice(0, max)
    .join(' ')
    .replace(/[,;:.!?-]+$/, '')}.`;
}
