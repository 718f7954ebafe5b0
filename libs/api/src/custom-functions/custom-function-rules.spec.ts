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
      /not a valid JSON Schema/,
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
  });
});
