/**
 * Masks an identifier for display: the first and last four characters stay (two each for short values),
 * the rest become `*`, so partners can tell accounts apart without the value being disclosed.
 */
export function maskIdentifier(value: string): string {
  // By code points: cutting between the halves of a surrogate pair leaves a string jsonb refuses.
  const chars = Array.from(value);
  if (chars.length <= 4) return '*'.repeat(chars.length);
  const keep = chars.length >= 12 ? 4 : 2;
  return `${chars.slice(0, keep).join('')}${'*'.repeat(chars.length - 2 * keep)}${chars.slice(-keep).join('')}`;
}
