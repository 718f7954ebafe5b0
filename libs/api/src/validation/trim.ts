/** For `@Transform(trimString)`: strings lose surrounding whitespace before validation; other values pass as given. */
export const trimString = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;
