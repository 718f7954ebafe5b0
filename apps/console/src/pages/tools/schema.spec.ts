import { checkParameters, parametersState, parametersValue, rowsToSchema, schemaToRows } from './schema';

describe('checkParameters', () => {
  const ok = (schema: unknown) => checkParameters(JSON.stringify(schema));

  it('accepts an object schema and returns it', () => {
    const schema = { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] };
    expect(ok(schema)).toEqual({ schema, problem: null });
  });

  it('says where the JSON is broken', () => {
    expect(checkParameters('{"type": "object",').problem).toMatch(/^Not valid JSON/);
    expect(checkParameters('').problem).toMatch(/Write a JSON Schema/);
    expect(checkParameters('[]').problem).toMatch(/must be a JSON object/);
  });

  it('applies the API’s rules', () => {
    expect(ok({ type: 'string' }).problem).toMatch(/“type” must be "object"/);
    expect(ok({ type: 'object', properties: [] }).problem).toMatch(/“properties” must be an object/);
    expect(ok({ type: 'object', properties: { a: { type: 'string', pattern: '^x' } } }).problem).toMatch(
      /“pattern” is not accepted \(at properties\.a\)/,
    );
    expect(ok({ type: 'object', patternProperties: {} }).problem).toMatch(/patternProperties/);
    expect(ok({ type: 'object', $id: 'x' }).problem).toMatch(/“\$id” is not accepted/);
    expect(ok({ type: 'object', properties: { a: { $ref: 'http://x/y' } } }).problem).toMatch(
      /point into this schema/,
    );
    expect(ok({ type: 'object', properties: { a: { $ref: '#/$defs/none' } } }).problem).toMatch(
      /names nothing/,
    );
    expect(
      ok({ type: 'object', $defs: { n: { $ref: '#/$defs/n' } }, properties: { a: { $ref: '#/$defs/n' } } })
        .problem,
    ).toMatch(/recursive/);
    expect(ok({ type: 'object', properties: { a: { type: 'text' } } }).problem).toMatch(
      /not a JSON Schema type/,
    );
    expect(ok({ type: 'object', required: 'a' }).problem).toMatch(/“required”/);
  });

  it('lets property names, enum and const say anything', () => {
    const schema = {
      type: 'object',
      properties: { pattern: { type: 'string', enum: ['pattern', '$ref'] }, $id: { const: { pattern: 1 } } },
    };
    expect(ok(schema).problem).toBeNull();
  });

  it('bounds the size and the depth', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 7; i++) deep = { type: 'object', properties: { a: deep } };
    expect(ok(deep).problem).toMatch(/at most 12 levels/);
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(ok({ type: 'object', properties: many }).problem).toMatch(/at most 250 objects/);
  });
});

describe('the form builder', () => {
  it('turns rows into a schema and back', () => {
    const rows = [
      { name: 'order_id', type: 'string', description: 'The order', required: true, choices: [] },
      { name: 'channel', type: 'string', description: '', required: false, choices: ['sms', 'email'] },
      { name: 'items', type: 'string[]', description: '', required: false, choices: [] },
      { name: 'count', type: 'integer', description: '', required: false, choices: [] },
    ];
    const { schema, problem } = rowsToSchema(rows);
    expect(problem).toBeNull();
    expect(schema).toEqual({
      type: 'object',
      properties: {
        order_id: { type: 'string', description: 'The order' },
        channel: { type: 'string', enum: ['sms', 'email'] },
        items: { type: 'array', items: { type: 'string' } },
        count: { type: 'integer' },
      },
      required: ['order_id'],
    });
    expect(schemaToRows(schema)).toEqual(rows);
  });

  it('names the row whose name is wrong or repeated', () => {
    const row = { type: 'string', description: '', required: false, choices: [] };
    expect(rowsToSchema([{ ...row, name: '1st' }]).problem).toMatch(/^Argument 1/);
    expect(
      rowsToSchema([
        { ...row, name: 'a' },
        { ...row, name: 'a' },
      ]).problem,
    ).toMatch(/^Argument 2: .* twice/);
  });

  it('leaves schemas it cannot show whole to the JSON editor', () => {
    expect(schemaToRows({ type: 'object', properties: { a: { type: 'object' } } })).toBeNull();
    expect(schemaToRows({ type: 'object', $defs: {} })).toBeNull();
    expect(schemaToRows({ type: 'object', properties: { a: { type: 'string', minLength: 2 } } })).toBeNull();
  });
});

describe('the parameters editor', () => {
  const row = { name: 'order_id', type: 'string', description: '', required: true, choices: [] };

  it('opens a schema the form can show as rows, with its JSON beside them', () => {
    const schema = { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] };
    expect(parametersState(schema)).toEqual({
      mode: 'form',
      rows: [row],
      text: JSON.stringify(schema, null, 2),
    });
  });

  it('opens no schema as an empty form', () => {
    expect(parametersState(null)).toEqual({
      mode: 'form',
      rows: [],
      text: JSON.stringify({ type: 'object', properties: {} }, null, 2),
    });
  });

  it('opens a schema the form cannot show whole as JSON', () => {
    const schema = { type: 'object', properties: { address: { type: 'object' } } };
    expect(parametersState(schema)).toEqual({
      mode: 'json',
      rows: [],
      text: JSON.stringify(schema, null, 2),
    });
  });

  it("sends the form's schema, or the first problem of its rows and no schema", () => {
    expect(parametersValue({ mode: 'form', rows: [row], text: '' })).toEqual({
      schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      problem: null,
    });
    expect(parametersValue({ mode: 'form', rows: [{ ...row, name: '9lives' }], text: '' })).toEqual({
      schema: null,
      problem: expect.stringMatching(/^Argument 1: a name is letters/),
    });
  });

  it("checks the form's schema with the API's rules too", () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ ...row, name: `p${i}`, required: false }));
    expect(parametersValue({ mode: 'form', rows: many, text: '' })).toEqual({
      schema: null,
      problem: expect.stringMatching(/at most 250 objects/),
    });
  });

  it('sends the JSON as typed, once it passes the checks, whatever the rows say', () => {
    const schema = { type: 'object', properties: { address: { type: 'object' } } };
    expect(parametersValue({ mode: 'json', rows: [row], text: JSON.stringify(schema) })).toEqual({
      schema,
      problem: null,
    });
    expect(parametersValue({ mode: 'json', rows: [row], text: '{"type":' }).problem).toMatch(
      /^Not valid JSON/,
    );
  });
});
