// Schema-driven fuzzing: every operation of the served OpenAPI document (partner and operator API) gets
// generated valid and invalid inputs (path ids, query parameters, bodies, content types) through the
// gateway with a real key. Whatever the input, the answer is never a 5xx and always the contract's envelope:
// success on 2xx, an error with a documented code otherwise. Inputs come from a fixed seed (FUZZ_SEED
// overrides it), so a failure replays; the seed and each failing request are printed.
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import fc from 'fast-check';
import { ErrorCode } from '@vap/messages';
import { api, createPartner, e2eEnv, gatewayUrl } from '../../support';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Generated cases per operation, on top of the fixed hostile ones. */
const CASES_PER_OPERATION = 4;
/** Requests in flight at once: enough to finish in seconds, few enough for a small shared machine. */
const PARALLEL = 4;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  security?: Record<string, string[]>[];
}
interface Case {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface Finding {
  request: Case;
  status: number;
  answer: string;
  problem: string;
}

const NUL = 'a\u0000b';
const encodeCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Cursors a partner could forge: well-formed outside, wrong inside. */
const BAD_CURSORS = [
  encodeCursor({ t: '2026-01-01T00:00:00.000Z', id: 'not-a-uuid' }),
  encodeCursor({ t: '2026-01-01T00:00:00.000Z', id: '12345' }),
  encodeCursor({ t: '2026-01-01T00:00:00.000Z', id: NUL }),
  encodeCursor({ t: 'Tue, 01 Jan 2026 00:00:00 GMT+9999', id: '00000000-0000-4000-8000-000000000000' }),
  encodeCursor({ t: '99999-01-01T00:00:00Z', id: '00000000-0000-4000-8000-000000000000' }),
  encodeCursor({ t: 1, id: [] }),
  'not base64 !',
];
/** Values of the wrong kind for any field or parameter. */
const HOSTILE_STRINGS = [
  '',
  NUL,
  '\u0000',
  '%00',
  'x'.repeat(5000),
  '\ud800 lone surrogate',
  '🙂 ünïcödé 中文 \u202e',
  '-1',
  '1e309',
  'NaN',
  '../../etc/passwd',
  "'; SELECT 1; --",
  'null',
  '2026-13-45T99:99:99Z',
];

function deepNest(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

const HOSTILE_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  2 ** 53 + 1,
  true,
  [],
  {},
  NUL,
  { [NUL]: NUL },
  [NUL],
  'x'.repeat(70_000),
  Array.from({ length: 20_000 }, (_, i) => i),
  deepNest(200),
  deepNest(1000),
  '🙂\ud800',
];

/** An arbitrary for (mostly) valid values of a dereferenced JSON schema. */
function arbitraryOf(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant('x');
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (variants?.length) return fc.oneof(...variants.map((s) => arbitraryOf(s, depth + 1)));
  if (schema.allOf) return arbitraryOf(Object.assign({}, ...(schema.allOf as Schema[])), depth + 1);
  const base = arbitraryOfType(schema, depth);
  return schema.nullable ? fc.option(base, { nil: null, freq: 8 }) : base;
}

function arbitraryOfType(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1000,
        max: schema.maximum ?? 100_000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
    case undefined:
      if (schema.properties) {
        const props = schema.properties as Record<string, Schema>;
        const record = Object.fromEntries(
          Object.entries(props).map(([k, s]) => [k, arbitraryOf(s, depth + 1)]),
        );
        return fc.record(record, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
      }
      return schema.type === 'object'
        ? fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 })
        : fc.constant('x');
    default:
      return stringArbitrary(schema);
  }
}

function stringArbitrary(schema: Schema): fc.Arbitrary<unknown> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
  }
  if (/E\.?164|phone/i.test(`${schema.description ?? ''}${schema.pattern ?? ''}`))
    return fc.constantFrom('+919876543210', '+14155550123', '12345');
  return fc.string({
    unit: 'grapheme',
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 24, 24),
  });
}

interface Rand {
  /** An integer in [min, max]. */
  nextInt(min: number, max: number): number;
}

/** mulberry32: a small seeded generator, so the choices around fast-check's samples replay too. */
function seededRandom(seed: number): Rand {
  let a = seed >>> 0;
  return {
    nextInt(min, max) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      return min + Math.floor(r * (max - min + 1));
    },
  };
}

/**
 * A value whose every limited part sits on its limit or one past it (maxLength, minLength, minimum,
 * maximum, maxItems), chosen by `rand`, so each operation is tried at its boundaries.
 */
function boundaryOf(schema: Schema | undefined, rand: Rand, depth = 0): unknown {
  if (!schema || depth > 6) return 'x';
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (variants?.length) return boundaryOf(variants[rand.nextInt(0, variants.length - 1)], rand, depth + 1);
  if (schema.allOf) return boundaryOf(Object.assign({}, ...(schema.allOf as Schema[])), rand, depth + 1);
  if (schema.enum) return (schema.enum as unknown[])[rand.nextInt(0, schema.enum.length - 1)];
  const past = rand.nextInt(0, 1);
  switch (schema.type) {
    case 'integer':
    case 'number': {
      if (schema.maximum !== undefined && (schema.minimum === undefined || rand.nextInt(0, 1)))
        return schema.maximum + past;
      if (schema.minimum !== undefined) return schema.minimum - past;
      return past ? 2 ** 31 : -(2 ** 31);
    }
    case 'boolean':
      return past === 1;
    case 'array': {
      const length =
        schema.maxItems !== undefined ? schema.maxItems + past : Math.max((schema.minItems ?? 1) - past, 0);
      return Array.from({ length: Math.min(length, 1000) }, () => boundaryOf(schema.items, rand, depth + 1));
    }
    case 'object':
    case undefined:
      if (schema.properties)
        return Object.fromEntries(
          Object.entries(schema.properties as Record<string, Schema>).map(([k, sub]) => [
            k,
            boundaryOf(sub, rand, depth + 1),
          ]),
        );
      return schema.type === 'object' ? { key: 'value' } : 'x';
    default: {
      const length =
        schema.maxLength !== undefined
          ? schema.maxLength + past
          : schema.minLength !== undefined
            ? Math.max(schema.minLength - past, 0)
            : 1000 * past;
      return '\u00e9'.repeat(Math.min(length, 100_000));
    }
  }
}

/** A copy of `value` with the value at one random place (or the whole) replaced by a hostile one. */
function corrupt(value: unknown, rand: Rand, hostile: unknown): unknown {
  if (value === null || typeof value !== 'object' || rand.nextInt(0, 3) === 0) return hostile;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
  const keys = Object.keys(copy);
  if (!keys.length) return Array.isArray(value) ? [hostile] : { extra_field: hostile };
  const key = keys[rand.nextInt(0, keys.length - 1)];
  copy[key] = corrupt(copy[key], rand, hostile);
  return copy;
}

/** Ids for path parameters: well-formed but unknown, prefixed the way the API writes them, and malformed. */
const PATH_IDS = [
  '00000000-0000-4000-8000-000000000000',
  'vc_00000000-0000-4000-8000-000000000000',
  'exs_00000000-0000-4000-8000-000000000000',
  'cmp_00000000-0000-4000-8000-000000000000',
  'not-a-uuid',
  '%00',
  'a%00b',
  encodeURIComponent('🙂'),
  'x'.repeat(300),
  '12345678901234567890',
];

function fillPath(template: string, ids: (name: string) => string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => ids(name));
}

function queryString(params: Record<string, string>): string {
  const q = new URLSearchParams(params).toString();
  return q ? `?${q}` : '';
}

function casesOf(method: string, template: string, op: Operation, auth: string, seed: number): Case[] {
  const rand = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[rand.nextInt(0, list.length - 1)];
  const params = op.parameters ?? [];
  const query = params.filter((p) => p.in === 'query');
  const bodySchema =
    op.requestBody?.content['application/json']?.schema ?? op.requestBody?.content['text/csv']?.schema;
  const jsonBody = !!op.requestBody?.content['application/json'];
  const validQuery = fc.record(
    Object.fromEntries(query.map((p) => [p.name, arbitraryOf(p.schema).map(String)])),
    { requiredKeys: query.filter((p) => p.required).map((p) => p.name) },
  ) as fc.Arbitrary<Record<string, string>>;
  const validBody = arbitraryOf(bodySchema);
  const samples = fc.sample(fc.tuple(validQuery, validBody, fc.uuid()), {
    seed,
    numRuns: CASES_PER_OPERATION,
  });
  const headers = (type?: string): Record<string, string> => ({
    authorization: auth,
    accept: 'application/json',
    ...(type ? { 'content-type': type } : {}),
  });
  const cases: Case[] = [];
  const add = (label: string, path: string, body?: unknown, type = 'application/json') =>
    cases.push({
      label,
      method,
      path,
      headers: headers(body === undefined ? undefined : type),
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const wantsBody = ['post', 'put', 'patch'].includes(method);

  samples.forEach(([q, body, uuid], n) => {
    const path = fillPath(template, () => uuid);
    const validish = wantsBody && jsonBody ? (body ?? {}) : undefined;
    if (n === 0) {
      add('generated valid input', `${path}${queryString(q)}`, validish);
      return;
    }
    // Each further sample breaks one thing: a path id, a query parameter, or a place in the body.
    const broken = n % 3;
    if (broken === 0 || (!query.length && !wantsBody)) {
      const id = pick(PATH_IDS);
      add(`path id ${id.slice(0, 40)}`, `${fillPath(template, () => id)}${queryString(q)}`, validish);
    } else if (broken === 1 && query.length) {
      const p = pick(query);
      const value = p.name === 'cursor' ? pick(BAD_CURSORS) : pick(HOSTILE_STRINGS);
      add(
        `query ${p.name}=${value.slice(0, 40)}`,
        `${path}${queryString({ ...q, [p.name]: value })}`,
        validish,
      );
    } else if (wantsBody) {
      const hostile = pick(HOSTILE_VALUES);
      const label = JSON.stringify(hostile)?.slice(0, 40) ?? String(hostile);
      add(`body with ${label}`, `${path}${queryString(q)}`, corrupt(body ?? {}, rand, hostile));
    }
  });
  // The same for every operation: limits, every cursor a partner could forge, and bodies of the wrong kind.
  const path = fillPath(template, () => '00000000-0000-4000-8000-000000000000');
  if (wantsBody && jsonBody) add('body at its limits', path, boundaryOf(bodySchema, rand));
  if (query.length) {
    const atLimits = Object.fromEntries(query.map((p) => [p.name, String(boundaryOf(p.schema, rand))]));
    add('query at its limits', `${path}${queryString(atLimits)}`);
  }
  if (query.some((p) => p.name === 'cursor'))
    for (const cursor of BAD_CURSORS)
      add(`cursor ${cursor.slice(0, 30)}`, `${path}${queryString({ cursor })}`);
  if (wantsBody) {
    add('text/plain body', path, 'hello', 'text/plain');
    add('form body', path, 'a=1&b=2', 'application/x-www-form-urlencoded');
    add('malformed JSON', path, '{"a":', 'application/json');
    add('JSON scalar', path, '"\\u0000"', 'application/json');
    add('deeply nested JSON', path, `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, 'application/json');
    add(
      'huge array',
      path,
      Array.from({ length: 50_000 }, () => 0),
      'application/json',
    );
  }
  if (query.length) {
    const p = pick(query);
    add(`query ${p.name} NUL`, `${path}${queryString({ [p.name]: NUL })}`);
    add(`query ${p.name} repeated`, `${path}?${p.name}=1&${p.name}=2`);
  }
  return cases;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const successEnvelope = ajv.compile({
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { const: true } },
});
const errorEnvelope = ajv.compile({
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { enum: Object.values(ErrorCode) },
        message: { type: 'string', minLength: 1 },
        details: { type: 'array', items: { type: 'object', required: ['field', 'message'] } },
        request_id: { type: 'string' },
      },
    },
  },
});

/**
 * A well-formed provider key is checked with its provider before it is saved, and this run reaches no provider:
 * the documented answer is 502 INTERNAL_ERROR ("<provider> cannot be reached from this deployment" or "did not
 * answer the key check"), the downstream
 * rule, not a failure on bad input.
 */
function providerUnreachable(c: Case, status: number, text: string): boolean {
  return (
    status === 502 &&
    /^\/api\/v2\/provider-credentials([/?]|$)/.test(c.path) &&
    /"code":"INTERNAL_ERROR".*(did not answer the key check|cannot be reached from this deployment)/.test(
      text,
    )
  );
}

async function send(c: Case): Promise<Finding | null> {
  let res: Response;
  try {
    res = await fetch(`${gatewayUrl()}${c.path}`, {
      method: c.method.toUpperCase(),
      headers: c.headers,
      body: c.body,
    });
  } catch (err) {
    return { request: c, status: 0, answer: String(err), problem: 'no answer (connection failed)' };
  }
  const text = await res.text();
  const finding = (problem: string): Finding => ({
    request: c,
    status: res.status,
    answer: text.slice(0, 300),
    problem,
  });
  if (res.status >= 500 && !providerUnreachable(c, res.status, text)) return finding('5xx');
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  // A few routes answer files or redirects on success (recordings, uploads); every other answer is JSON.
  if (res.status < 300 && !isJson) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return finding('not JSON');
  }
  if (res.status < 300) return successEnvelope(body) ? null : finding('not the success envelope');
  return errorEnvelope(body)
    ? null
    : finding(`not the error envelope: ${ajv.errorsText(errorEnvelope.errors)}`);
}

async function inPool<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const item = items[next++];
        results.push(await run(item));
      }
    }),
  );
  return results;
}

describe('OpenAPI fuzzing', () => {
  it('answers every generated input of every documented operation with the envelope and no 5xx', async () => {
    const served = await api('/api/v2/openapi.json');
    expect(served.status).toBe(200);
    const doc = (await SwaggerParser.dereference(structuredClone(served.body) as never)) as unknown as {
      paths: Record<string, Record<string, Operation>>;
    };
    const { apiKey } = await createPartner({ name: 'Fuzz Co', balance_inr: 100 });
    const cases: Case[] = [];
    let n = 0;
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const admin = op.security?.some((s) => 'admin_token' in s) || template.startsWith('/admin/');
        const auth = `Bearer ${admin ? e2eEnv().adminToken : apiKey}`;
        cases.push(...casesOf(method, template, op, auth, SEED + n++));
      }
    }
    expect(n).toBeGreaterThan(50);

    const started = Date.now();
    const findings = (await inPool(cases, PARALLEL, send)).filter((f): f is Finding => f !== null);
    process.stdout.write(
      `OpenAPI fuzzing: ${n} operations, ${cases.length} requests in ${Date.now() - started} ms (FUZZ_SEED=${SEED})\n`,
    );
    const report = findings
      .map(
        (f) =>
          `${f.request.method.toUpperCase()} ${f.request.path.slice(0, 160)} [${f.request.label}] ` +
          `-> ${f.status} ${f.problem}: ${f.answer}` +
          (f.request.body ? `\n    body: ${f.request.body.slice(0, 300)}` : ''),
      )
      .join('\n');
    if (findings.length)
      process.stdout.write(`OpenAPI fuzzing (FUZZ_SEED=${SEED}) found ${findings.length}:\n${report}\n`);
    expect({
      seed: SEED,
      operations: n,
      requests: cases.length,
      findings: report.split('\n').filter(Boolean),
    }).toEqual({
      seed: SEED,
      operations: n,
      requests: cases.length,
      findings: [],
    });
  }, 120_000);
});
