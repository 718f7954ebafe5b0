/** Key names are snake_case identifiers so they can be used as JSON keys and column names as they are. */
export const EXTRACTION_KEY_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

export const ExtractionLimits = {
  inlineKeysMax: 50,
  setKeysMax: 100,
  descriptionMax: 500,
  enumOptionsMax: 50,
  enumOptionMax: 100,
  setNameMax: 100,
  setDescriptionMax: 1000,
} as const;

/** Why the options of a key are invalid for its type, or null when they fit. */
export function extractionOptionsProblem(type: unknown, options: unknown): string | null {
  if (type !== 'enum') return options === undefined ? null : 'options is only allowed when type is enum';
  if (!Array.isArray(options) || options.length === 0)
    return 'options must be a non-empty array of strings when type is enum';
  if (options.length > ExtractionLimits.enumOptionsMax)
    return `options takes at most ${ExtractionLimits.enumOptionsMax} values`;
  if (
    options.some(
      (o) => typeof o !== 'string' || o.trim().length === 0 || o.length > ExtractionLimits.enumOptionMax,
    )
  ) {
    return `each option must be a non-blank string of at most ${ExtractionLimits.enumOptionMax} characters`;
  }
  if (new Set(options).size !== options.length) return 'options must not repeat a value';
  return null;
}

/** Names that occur more than once in a list of keys. */
export function duplicateKeyNames(keys: readonly { name: unknown }[]): string[] {
  const seen = new Set<unknown>();
  const dup = new Set<string>();
  for (const k of keys) {
    if (seen.has(k.name)) dup.add(String(k.name));
    seen.add(k.name);
  }
  return [...dup];
}
