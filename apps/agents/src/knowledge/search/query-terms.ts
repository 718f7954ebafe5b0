/** A search query split into what chunks should match and the `-word` / `-"phrase"` terms they must not. */
export interface QueryTerms {
  positive: string;
  /** The excluded terms as one web-search query of alternatives ('' when none). */
  negative: string;
}

const NEGATED = /(^|\s)-("[^"]*"|[^\s"]+)/g;

export function splitQueryTerms(query: string): QueryTerms {
  const excluded: string[] = [];
  const positive = query.replace(NEGATED, (_, lead: string, term: string) => {
    excluded.push(term);
    return lead;
  });
  return { positive: positive.trim(), negative: excluded.join(' or ') };
}
