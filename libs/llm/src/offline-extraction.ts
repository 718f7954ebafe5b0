import { EffectiveExtractionKey } from '@vap/messages';
import { coerceValue, ExtractionInput } from './extraction';
import { contentWords, sentences } from './text';

const NEGATION = /\b(no|not|don't|dont|never|nope|can't|cannot|won't|isn't|wasn't)\b/i;
const MONTHS = 'january february march april may june july august september october november december'.split(
  ' ',
);

/**
 * The offline engine's extraction: each key's name and description are matched against the callee's
 * sentences; the best-matching sentence gives the value by the key's type. Same input, same output.
 */
export function extractOffline(input: ExtractionInput): Record<string, unknown> {
  const said = input.transcript.filter((t) => t.role === 'user').flatMap((t) => sentences(t.content));
  return Object.fromEntries(input.keys.map((key) => [key.name, valueOf(key, said)]));
}

function valueOf(key: EffectiveExtractionKey, said: string[]): unknown {
  const terms = new Set(contentWords(`${key.name.replace(/_/g, ' ')} ${key.description}`));
  let best: string | null = null;
  let bestScore = 0;
  for (const s of said) {
    const score = contentWords(s).filter((w) => terms.has(w)).length;
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  switch (key.type) {
    case 'boolean':
      return best === null ? null : !NEGATION.test(best);
    case 'number':
      return coerceValue(key, best === null ? null : (/-?\d+(\.\d+)?/.exec(best)?.[0] ?? null));
    case 'date':
      return dateIn(best ? [best, ...said] : said);
    case 'enum': {
      const all = said.join(' ').toLowerCase();
      return (key.options ?? []).find((o) => all.includes(o.toLowerCase())) ?? null;
    }
    default:
      return best;
  }
}

function dateIn(texts: string[]): string | null {
  const named = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?`, 'i');
  for (const t of texts) {
    const iso = /\b(\d{4}-\d{2}-\d{2})\b/.exec(t);
    if (iso) return iso[1];
    const found = named.exec(t);
    if (found) {
      const month = MONTHS.indexOf(found[1].toLowerCase()) + 1;
      const year = found[3] ?? String(new Date().getUTCFullYear());
      return `${year}-${String(month).padStart(2, '0')}-${found[2].padStart(2, '0')}`;
    }
  }
  return null;
}
