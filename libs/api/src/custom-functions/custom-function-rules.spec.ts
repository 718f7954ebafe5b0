import {
  argumentsShapeProblem,
  compileArgumentsSchema,
  customFunctionNameProblem,
  describeArgumentErrors,
  headersProblem,
  parametersProblem,
  responseVariablesProblem,
} from './custom-function-rules';
import { parseResponsePath, readResponsePath } from './response-path';

describe('custom function rules', () => {
  it('takes model-facing names and refuses built-in tool names in any case', () => {
    expect(customFunctionNameProblem('check_order')).toBeNull();
    expect(customFunctionNameProblem('_x9')).toBeNull();
    expect(customFunctionNameProblem('9lives')).toMatch(/must match/);
    expect(customFunctionNameProblem('has-dash')).toMatch(/must match/);
    expect(customFunctionNameProblem('a'.repeat(65))).toMatch(/must match/);
    expect(customFunctionNameProblem('end_call')).toMatch(/built-in/);
    expect(customFunctionNameProblem('Transfer_Call')).toMatch(/built-in/);
  });

  it('takes an object schema that compiles, and refuses others with the reason', () => {
    expect(
      parametersProblem({
        type: 'object',
        properties: { id: { type: 'string' }, pattern: { type: 'string' } },
        required: ['id'],
      }),
    ).toBeNull();
    expect(parametersProblem([])).toMatch(/JSON Schema object/);
    expect(parametersProblem({ type: 'string' })).toMatch(/type "object"/);
    expect(parametersProblem({ type: 'object', properties: [] })).toMatch(/properties must be an object/);
    expect(parametersProblem({ type: 'object', properties: { a: { type: 'nonsense' } } })).toMatch(
      /not a valid JSON Schema/,
    );
    expect(parametersProblem({ type: 'object', properties: { a: { $ref: '#/nowhere' } } })).toMatch(
      /names nothing/,
    );
    expect(
      parametersProblem({ type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } }),
    ).toMatch(/pattern keyword/);
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 20; i++) deep = { type: 'object', properties: { x: deep } };
    expect(parametersProblem(deep)).toMatch(/levels deep/);
    expect(parametersProblem({ type: 'object', description: 'x'.repeat(20_000) })).toMatch(
      /characters as JSON/,
    );
  });

  describe('a regular expression anywhere in the schema', () => {
    const redos = { type: 'string', pattern: '^(a+)+$' };
    const at = (where: Record<string, unknown>) => ({ type: 'object', ...where });
    it.each([
      ['dependencies', at({ dependencies: { a: { properties: { b: redos } } } })],
      ['dependencies directly', at({ dependencies: { a: redos } })],
      ['$ref to $defs', at({ properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: redos } })],
      [
        '$ref to definitions',
        at({ properties: { a: { $ref: '#/definitions/x' } }, definitions: { x: redos } }),
      ],
      ['$ref to an unlisted key', at({ properties: { a: { $ref: '#/hidden/x' } }, hidden: { x: redos } })],
      ['items', at({ properties: { a: { type: 'array', items: redos } } })],
      ['items nested twice', at({ properties: { a: { items: { items: [redos] } } } })],
      ['allOf', at({ allOf: [{ properties: { a: redos } }] })],
      ['anyOf', at({ anyOf: [{ properties: { a: redos } }] })],
      ['oneOf', at({ oneOf: [{ properties: { a: redos } }] })],
      ['not', at({ not: { properties: { a: redos } } })],
      ['if', at({ if: { properties: { a: redos } } })],
      ['then', at({ if: { required: ['a'] }, then: { properties: { a: redos } } })],
      ['else', at({ if: { required: ['a'] }, else: { properties: { a: redos } } })],
      ['propertyNames', at({ propertyNames: redos })],
      ['contains', at({ properties: { a: { type: 'array', contains: redos } } })],
      ['additionalProperties', at({ additionalProperties: redos })],
      ['prefixItems', at({ properties: { a: { type: 'array', prefixItems: [redos] } } })],
      ['dependentSchemas', at({ dependentSchemas: { a: { properties: { b: redos } } } })],
      ['unevaluatedProperties', at({ unevaluatedProperties: redos })],
      ['an unknown keyword', at({ 'x-vendor': { nested: redos } })],
      ['patternProperties', at({ patternProperties: { '^(a+)+$': { type: 'string' } } })],
      ['a property named properties', at({ properties: { properties: { pattern: '^(a+)+$' } } })],
    ])('refuses a pattern under %s', (_where, schema) => {
      expect(parametersProblem(schema)).toMatch(/must not use the pattern(Properties)? keyword/);
    });

    it.each([
      ['a remote $ref', { $ref: 'https://example.com/schema.json' }, /local JSON pointer/],
      ['a relative $ref', { $ref: 'other.json#/a' }, /local JSON pointer/],
      ['an anchor $ref', { $ref: '#anchor' }, /local JSON pointer/],
      ['a $ref that names nothing', { $ref: '#/$defs/none' }, /names nothing/],
      ['$dynamicRef', { $dynamicRef: '#meta' }, /\$dynamicRef keyword/],
      ['$recursiveRef', { $recursiveRef: '#' }, /\$recursiveRef keyword/],
      ['$id', { $id: 'https://example.com/x', type: 'string' }, /\$id keyword/],
      ['a recursive $ref', { $ref: '#' }, /not be recursive/],
    ])('refuses %s', (_what, sub, reason) => {
      expect(parametersProblem(at({ properties: { a: sub } }))).toMatch(reason);
    });

    it('takes local $refs, and names, data and descriptions that merely say pattern', () => {
      expect(
        parametersProblem(
          at({
            properties: {
              pattern: { $ref: '#/$defs/code' },
              other: { $ref: '#/properties/pattern' },
              kind: { enum: [{ pattern: 'x' }], default: { pattern: 'x' }, description: 'a pattern' },
            },
            $defs: { code: { type: 'string', maxLength: 8 } },
            dependentRequired: { pattern: ['other'] },
          }),
        ),
      ).toBeNull();
    });

    it('bounds a schema by its objects with the $refs expanded', () => {
      // Ten definitions, each naming the one below it twice: 2^10 copies of the last once expanded.
      const defs: Record<string, unknown> = { d0: { type: 'string' } };
      for (let i = 1; i <= 10; i++)
        defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
      expect(JSON.stringify(defs).length).toBeLessThan(1000);
      expect(parametersProblem(at({ properties: { a: { $ref: '#/$defs/d10' } }, $defs: defs }))).toMatch(
        /at most 250 schema objects/,
      );
      const small = { ...defs };
      for (let i = 5; i <= 10; i++) delete small[`d${i}`];
      expect(parametersProblem(at({ properties: { a: { $ref: '#/$defs/d4' } }, $defs: small }))).toBeNull();
    });

    it('bounds what checking arguments may cost: the largest schema against the largest arguments', () => {
      // Every one of the schema's objects applied to every value of the arguments, each failing (with allErrors).
      const branches = Array.from({ length: 240 }, () => ({ type: 'string' }));
      const schema = at({ properties: { a: { items: { allOf: branches } } } });
      expect(parametersProblem(schema)).toBeNull();
      const args = { a: Array.from({ length: 498 }, (_, i) => i) };
      expect(argumentsShapeProblem(args)).toBeNull();
      const validate = compileArgumentsSchema(schema);
      const started = performance.now();
      expect(validate(args)).toBe(false);
      expect(performance.now() - started).toBeLessThan(500);
      // Three times as many branches are refused.
      const threefold = at({
        properties: { a: { items: { allOf: [...branches, ...branches, ...branches] } } },
      });
      expect(parametersProblem(threefold)).toMatch(/at most 250 schema objects/);
    });

    it('compiles no regular expression, whatever reaches ajv', () => {
      expect(() => compileArgumentsSchema(at({ dependencies: { a: redos } }))).toThrow(
        /regular expressions are not accepted/,
      );
      expect(() => compileArgumentsSchema(at({ patternProperties: { '^x': { type: 'string' } } }))).toThrow(
        /regular expressions are not accepted/,
      );
    });
  });

  it('bounds static headers and refuses the ones the platform sets', () => {
    expect(headersProblem({ Authorization: 'Bearer t', 'X-Api-Key': 'k' })).toBeNull();
    expect(headersProblem({ Host: 'x' })).toMatch(/set by the platform/);
    expect(headersProblem({ 'X-Vap-Signature': 'x' })).toMatch(/set by the platform/);
    expect(headersProblem({ 'content-length': '1' })).toMatch(/set by the platform/);
    expect(headersProblem({ 'bad name': 'x' })).toMatch(/not a valid header name/);
    expect(headersProblem({ A: 'line\r\nbreak' })).toMatch(/without line breaks/);
    expect(headersProblem({ A: 1 })).toMatch(/must be a string/);
    expect(headersProblem({ a: 'x', A: 'y' })).toMatch(/given twice/);
    expect(headersProblem(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`h${i}`, 'v'])))).toMatch(
      /at most 20/,
    );
  });

  it('parses the documented JSON-path subset and nothing more', () => {
    expect(parseResponsePath('$')).toEqual([]);
    expect(parseResponsePath('$.order.items[2]["unit price"]')).toEqual(['order', 'items', 2, 'unit price']);
    expect(parseResponsePath('$["a\\"b"]')).toEqual(['a"b']);
    for (const bad of ['order', '$..a', '$.a[*]', '$[-1]', '$.a[?(@.x)]', "$['a']", '$.', '$[01]'])
      expect(parseResponsePath(bad)).toBeNull();
    expect(responseVariablesProblem({ status: '$.order.status' })).toBeNull();
    expect(responseVariablesProblem({ status: '$..x' })).toMatch(/path of status/);
    expect(responseVariablesProblem({ '1x': '$' })).toMatch(/must match/);
  });

  it('reads a path out of an answer, own keys only', () => {
    const answer = { order: { status: 'shipped', items: [{ name: 'Tea' }] }, list: [1, 2] };
    expect(readResponsePath(answer, parseResponsePath('$.order.status')!)).toBe('shipped');
    expect(readResponsePath(answer, parseResponsePath('$.order.items[0].name')!)).toBe('Tea');
    expect(readResponsePath(answer, parseResponsePath('$')!)).toEqual(answer);
    expect(readResponsePath(answer, parseResponsePath('$.list[5]')!)).toBeUndefined();
    expect(readResponsePath(answer, parseResponsePath('$.order.constructor')!)).toBeUndefined();
    expect(readResponsePath(answer, parseResponsePath('$.list.length')!)).toBeUndefined();
  });

  it('names the fields arguments break, for the model to correct', () => {
    const validate = compileArgumentsSchema({
      type: 'object',
      properties: { order_id: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
      required: ['order_id'],
      additionalProperties: false,
    });
    expect(validate({ order_id: 'A1', qty: 2 })).toBe(true);
    expect(validate({ qty: 0, extra: true })).toBe(false);
    const text = describeArgumentErrors(validate.errors);
    expect(text).toMatch(/order_id is required/);
    expect(text).toMatch(/extra is not an accepted argument/);
    expect(text).toMatch(/qty must be >= 1/);
    expect(argumentsShapeProblem([])).toMatch(/JSON object/);
    expect(argumentsShapeProblem({ a: 'x'.repeat(20_000) })).toMatch(/at most/);
    expect(argumentsShapeProblem({ a: Array.from({ length: 498 }, (_, i) => i) })).toBeNull();
    expect(argumentsShapeProblem({ a: Array.from({ length: 499 }, (_, i) => i) })).toMatch(
      /at most 500 values/,
    );
    expect(argumentsShapeProblem({ a: Array.from({ length: 300 }, () => [1]) })).toMatch(
      /at most 500 values/,
    );
  });
});
