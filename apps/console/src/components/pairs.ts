// A map of names to values (headers, response variables) as the rows a form edits, and back.

export interface Pair {
  key: string;
  value: string;
}

/** One row per entry, in the map's order; no map, no rows. */
export const toPairs = (map: Record<string, string> | null | undefined): Pair[] =>
  Object.entries(map ?? {}).map(([key, value]) => ({ key, value }));

/** The rows as an object, rows without a name left out. */
export const fromPairs = (pairs: Pair[]): Record<string, string> =>
  Object.fromEntries(pairs.filter((p) => p.key.trim() !== '').map((p) => [p.key.trim(), p.value]));
