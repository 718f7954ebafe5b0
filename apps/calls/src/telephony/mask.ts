/**
 * Masks an identifier for display: the first and last four characters stay (two each for short values),
 * the rest become `*`, so partners can tell accounts apart without the value being disclosed.
 */
export function maskIdentifier(value: string): string {
  if (value.length <= 4) return '*'.repeat(value.length);
  const keep = value.length >= 12 ? 4 : 2;
  return `${value.slice(0, keep)}${'*'.repeat(value.length - 2 * keep)}${value.slice(-keep)}`;
}
