import {
  duplicateKeyNames,
  EXTRACTION_KEY_NAME_PATTERN,
  extractionOptionsProblem,
} from './extraction-key-rules';

describe('extraction key rules', () => {
  it.each(['a', 'caller_name', 'x1', 'a'.repeat(64), 'budget_in_inr_2'])('accepts the name %s', (name) => {
    expect(EXTRACTION_KEY_NAME_PATTERN.test(name)).toBe(true);
  });

  it.each(['', '1abc', '_a', 'Caller', 'caller-name', 'caller name', 'a'.repeat(65), 'naïve'])(
    'rejects the name %j',
    (name) => {
      expect(EXTRACTION_KEY_NAME_PATTERN.test(name)).toBe(false);
    },
  );

  it('requires options for enum and only for enum', () => {
    expect(extractionOptionsProblem('enum', ['yes', 'no'])).toBeNull();
    expect(extractionOptionsProblem('string', undefined)).toBeNull();
    expect(extractionOptionsProblem('enum', undefined)).toMatch(/non-empty array/);
    expect(extractionOptionsProblem('enum', [])).toMatch(/non-empty array/);
    expect(extractionOptionsProblem('enum', ['a', 'a'])).toMatch(/must not repeat/);
    expect(extractionOptionsProblem('enum', [' '])).toMatch(/non-blank/);
    expect(
      extractionOptionsProblem(
        'enum',
        Array.from({ length: 51 }, (_, i) => `o${i}`),
      ),
    ).toMatch(/at most 50/);
    expect(extractionOptionsProblem('boolean', ['a'])).toMatch(/only allowed when type is enum/);
  });

  it('finds repeated names', () => {
    expect(duplicateKeyNames([{ name: 'a' }, { name: 'b' }, { name: 'a' }, { name: 'a' }])).toEqual(['a']);
    expect(duplicateKeyNames([{ name: 'a' }, { name: 'b' }])).toEqual([]);
  });
});
