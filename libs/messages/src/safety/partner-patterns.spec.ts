import {
  compilePartnerSchema,
  LITERAL_REGEXP_LIMITS,
  literalRegExp,
  regexKeywordPath,
} from './partner-patterns';

describe('partner patterns', () => {
  it('finds a regex keyword anywhere a schema could apply it, and not in names or data', () => {
    expect(regexKeywordPath({ type: 'string', pattern: 'x' })).toBe('schema.pattern');
    expect(regexKeywordPath({ dependencies: { a: { pattern: 'x' } } })).toBe('schema.dependencies.a.pattern');
    expect(regexKeywordPath({ not: { patternProperties: {} } })).toBe('schema.not.patternProperties');
    expect(regexKeywordPath({ anyOf: [{}, { unknownKeyword: { pattern: 'x' } }] })).toBe(
      'schema.anyOf[1].unknownKeyword.pattern',
    );
    expect(regexKeywordPath({ properties: { pattern: { type: 'string' } } })).toBeNull();
    expect(regexKeywordPath({ enum: [{ pattern: 'x' }], const: { pattern: 'x' } })).toBeNull();
  });

  it('reports a schema too large to walk as refused', () => {
    const wide = { properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, {}])) };
    expect(regexKeywordPath(wide, 'schema', 10)).not.toBeNull();
  });

  it('compiles a schema with no regex, and refuses one with a regex before ajv builds it', () => {
    const validate = compilePartnerSchema({ type: 'object', properties: { n: { type: 'integer' } } });
    expect(validate({ n: 1 })).toBe(true);
    expect(validate({ n: 'x' })).toBe(false);
    expect(() => compilePartnerSchema({ properties: { q: { pattern: '^(a+)+$' } } })).toThrow(
      'schema.properties.q.pattern: regular expressions are not accepted',
    );
    // A format ajv would check with a regex is not checked (formats are off), so nothing compiles one.
    expect(compilePartnerSchema({ type: 'string', format: 'email' })('not an email')).toBe(true);
  });

  it('matches literals literally, whatever characters they hold', () => {
    const any = literalRegExp(['a+', '(b)'], { join: 'any', before: '^', after: '$' });
    expect(any.test('a+')).toBe(true);
    expect(any.test('aaa')).toBe(false);
    expect(any.test('(b)')).toBe(true);
    const sequence = literalRegExp(['check', 'order'], {
      join: 'sequence',
      separator: '[\\s_-]+',
      flags: 'i',
    });
    expect(sequence.test('Please CHECK_order now')).toBe(true);
    // The shape of a catastrophic pattern, as literals, is only text.
    expect(literalRegExp(['(a+)+$'], { join: 'any' }).test(`${'a'.repeat(300)}!`)).toBe(false);
  });

  it('bounds the literal text of one regex', () => {
    expect(() => literalRegExp(['x'.repeat(LITERAL_REGEXP_LIMITS.chars + 1)], { join: 'any' })).toThrow(
      'too much literal text',
    );
  });
});
