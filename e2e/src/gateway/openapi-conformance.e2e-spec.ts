import { api, OpenApiConformance, OpenApiDocument } from '../../support';

/**
 * The check every e2e answer goes through (e2e/setup/response-conformance.ts): what it accepts and what
 * it refuses, on small documents, then that every response schema of the served document can be used.
 */
const envelopeOf = (ref: string) => ({
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { type: 'boolean', enum: [true] }, data: { $ref: ref } },
});
const json = (schema: Record<string, unknown>) => ({
  description: 'x',
  content: { 'application/json': { schema } },
});
const ERROR = json({ $ref: '#/components/schemas/Error' });

function documentFor(thing: Record<string, unknown>, openapi = '3.0.0'): OpenApiDocument {
  return {
    openapi,
    paths: {
      '/api/v2/things/{id}': {
        get: { responses: { '200': json(envelopeOf('#/components/schemas/Thing')), '404': ERROR } },
      },
      '/api/v2/things/special': {
        get: {
          responses: {
            '200': json({
              type: 'object',
              required: ['special'],
              properties: { special: { type: 'boolean' } },
            }),
          },
        },
      },
      '/api/v2/files/{token}': {
        get: { responses: { '200': { description: 'x', content: { 'application/octet-stream': {} } } } },
      },
    },
    components: {
      schemas: {
        Thing: { type: 'object', required: Object.keys(thing), properties: thing },
        Part: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        Error: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { type: 'boolean', enum: [false] },
            error: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
          },
        },
      },
    },
  };
}

const answer = (data: unknown, extra: Partial<Parameters<OpenApiConformance['check']>[0]> = {}) => ({
  method: 'GET',
  path: '/api/v2/things/123',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  body: { success: true, data },
  ...extra,
});

describe('OpenAPI conformance check', () => {
  it('accepts an answer the document describes and names each field it does not', () => {
    const check = new OpenApiConformance(
      documentFor({ name: { type: 'string' }, size: { type: 'integer' } }),
    );
    expect(check.check(answer({ name: 'a', size: 1 }))).toEqual([]);
    const problems = check.check(answer({ name: 1, size: 'big' }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/GET \/api\/v2\/things\/123 -> 200: body\/data\/name must be string/);
    expect(problems[1]).toMatch(/body\/data\/size must be integer/);
  });

  it('reads OpenAPI 3.0 nullable as 3.0.3 does: it adds null to the type beside it, nothing else', () => {
    const check = new OpenApiConformance(
      documentFor({
        note: { type: 'string', nullable: true },
        kind: { type: 'string', nullable: true, enum: ['a', 'b', null] },
        loose_kind: { type: 'string', nullable: true, enum: ['a', 'b'] },
        // What @nestjs/swagger emits for a nullable class: the allOf still requires an object.
        allof_part: { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Part' }] },
        part: {
          oneOf: [{ $ref: '#/components/schemas/Part' }, { type: 'object', nullable: true, enum: [null] }],
        },
      }),
    );
    const ok = { note: null, kind: null, loose_kind: 'a', allof_part: { n: 1 }, part: null };
    expect(check.check(answer(ok))).toEqual([]);
    expect(check.check(answer({ ...ok, part: { n: 2 } }))).toEqual([]);
    expect(check.check(answer({ ...ok, part: { n: 'x' } })).join('\n')).toMatch(/data\/part/);
    expect(check.check(answer({ ...ok, loose_kind: null })).join('\n')).toMatch(
      /data\/loose_kind must be equal to one of the allowed values/,
    );
    expect(check.check(answer({ ...ok, allof_part: null })).join('\n')).toMatch(
      /data\/allof_part must be object/,
    );
  });

  it('reads OpenAPI 3.1 type arrays', () => {
    const check = new OpenApiConformance(
      documentFor(
        {
          note: { type: ['string', 'null'] },
          part: { anyOf: [{ $ref: '#/components/schemas/Part' }, { type: 'null' }] },
        },
        '3.1.0',
      ),
    );
    expect(check.check(answer({ note: null, part: null }))).toEqual([]);
    expect(check.check(answer({ note: 'x', part: { n: 1 } }))).toEqual([]);
    const problems = check.check(answer({ note: 1, part: {} })).join('\n');
    expect(problems).toMatch(/data\/note must be string,null/);
    expect(problems).toMatch(/data\/part must match a schema in anyOf/);
  });

  it('refuses an undocumented status, content type or body', () => {
    const check = new OpenApiConformance(documentFor({}));
    expect(check.check(answer({}, { status: 409 }))).toEqual([
      expect.stringMatching(
        /status 409 is not documented for GET \/api\/v2\/things\/\{id\} \(documented: 200, 404\)/,
      ),
    ]);
    expect(check.check(answer({}, { contentType: 'text/html' }))).toEqual([
      expect.stringMatching(/content type text\/html is not documented/),
    ]);
    expect(check.check(answer({}, { body: '<html>' }))).toEqual([expect.stringMatching(/not JSON/)]);
    expect(
      check.check(
        answer({}, { path: '/api/v2/files/t', contentType: 'application/octet-stream', body: 'x' }),
      ),
    ).toEqual([]);
  });

  it('refuses an unknown route or method, except the router’s own 404 for it', () => {
    const check = new OpenApiConformance(documentFor({}));
    const noRoute = { success: false, error: { code: 'NOT_FOUND', message: 'No route GET /api/v2/nope' } };
    expect(check.check(answer({}, { path: '/api/v2/nope' }))).toEqual([
      expect.stringMatching(/no operation in the document for GET \/api\/v2\/nope/),
    ]);
    expect(check.check(answer({}, { method: 'DELETE' }))).toEqual([
      expect.stringMatching(/no operation in the document for DELETE \/api\/v2\/things\/\{id\}/),
    ]);
    expect(check.check(answer({}, { path: '/api/v2/nope', status: 404, body: noRoute }))).toEqual([]);
    const notFound = { success: false, error: { code: 'NOT_FOUND', message: 'Agent not found' } };
    expect(check.check(answer({}, { path: '/api/v2/nope', status: 404, body: notFound }))).toHaveLength(1);
    // Health probes and the documentation routes are not API operations.
    expect(check.check(answer({}, { path: '/health/ready' }))).toEqual([]);
    expect(check.check(answer({}, { path: '/api/v2/openapi.json' }))).toEqual([]);
  });

  it('matches routes as the router does: literal segments first, any case, one trailing slash', () => {
    const check = new OpenApiConformance(documentFor({}));
    expect(check.templateOf('/api/v2/things/special')).toBe('/api/v2/things/special');
    expect(check.templateOf('/API/V2/THINGS/42/?x=1')).toBe('/api/v2/things/{id}');
    const special = { body: { special: true } };
    expect(check.check(answer({}, { path: '/api/v2/things/special', ...special }))).toEqual([]);
    expect(check.check(answer({}, { path: '/API/V2/Things/Special/', ...special }))).toEqual([]);
    expect(check.check(answer({}, { path: '/api/v2/things/special' }))).toEqual([
      expect.stringMatching(/body must have required property 'special'/),
    ]);
  });

  it('can compile every response schema of the served document', async () => {
    const res = await api('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    expect(new OpenApiConformance(res.body as OpenApiDocument).schemaProblems()).toEqual([]);
  });
});
