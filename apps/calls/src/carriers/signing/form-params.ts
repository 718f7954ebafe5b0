import { timingSafeEqual } from 'node:crypto';

/** Form parameters with repeats kept, in a stable shape for signing: name -> values in arrival order. */
export type FormParams = Map<string, string[]>;

export function parseForm(body: string): FormParams {
  const params: FormParams = new Map();
  for (const [name, value] of new URLSearchParams(body))
    params.set(name, [...(params.get(name) ?? []), value]);
  return params;
}

export function formFromRecord(record: Record<string, string | string[]>): FormParams {
  return new Map(Object.entries(record).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
}

/** First value of each name, for reading fields after the signature has been checked. */
export function firstValues(params: FormParams): Record<string, string> {
  return Object.fromEntries([...params].map(([k, v]) => [k, v[0] ?? '']));
}

/** Names in code-unit order, as the carriers' SDKs sort them. */
export function sortedNames(params: FormParams): string[] {
  return [...params.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Constant-time comparison of two signature strings (lengths may differ without leaking which bytes match). */
export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  // Compare equal-length buffers always, so the time does not depend on where they differ.
  const padded = Buffer.alloc(a.length);
  b.copy(padded, 0, 0, Math.min(a.length, b.length));
  return timingSafeEqual(a, padded) && a.length === b.length;
}
