import { api } from '../../support';

type Schema = Record<string, unknown>;

/** Every schema object of the document, with where it sits. */
function* schemasOf(value: unknown, at: string): Generator<[string, Schema]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* schemasOf(item, `${at}/${i}`);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const node = value as Schema;
  if (typeof node.type === 'string' || 'nullable' in node || 'allOf' in node || 'oneOf' in node) {
    yield [at, node];
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'properties' && child && typeof child === 'object') {
      // Property names are free: one may well be called `default` or `enum`.
      for (const [name, property] of Object.entries(child))
        yield* schemasOf(property, `${at}/properties/${name}`);
    } else if (key !== 'example' && key !== 'default' && key !== 'enum') {
      // Examples, defaults and enum values are values, not schemas.
      yield* schemasOf(child, `${at}/${key}`);
    }
  }
}

/**
 * Types in the served document are what the API sends and takes. @nestjs/swagger writes a bare
 * `type: object` for a TypeScript type it cannot map (`unknown`, `string | null`), and a nullable class or
 * enum in forms that OpenAPI 3.0.3 reads as not nullable; neither may reach the document.
 */
describe('OpenAPI document types', () => {
  let schemas: [string, Schema][];

  beforeAll(async () => {
    const res = await api('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    schemas = [...schemasOf(res.body.components, '#/components'), ...schemasOf(res.body.paths, '#/paths')];
  });

  it('has no bare object: every object names its properties or says what its keys are', () => {
    const bare = schemas
      .filter(
        ([, s]) =>
          s.type === 'object' &&
          !s.properties &&
          s.additionalProperties === undefined &&
          !s.allOf &&
          !s.oneOf &&
          !s.anyOf &&
          !(Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null),
      )
      .map(([at]) => at);
    expect(bare).toEqual([]);
  });

  it('marks nullables the way OpenAPI 3.0.3 reads them: beside a type, with null among enum values', () => {
    const wrong = schemas
      .filter(([, s]) => s.nullable === true)
      .filter(
        ([, s]) =>
          typeof s.type !== 'string' ||
          s.allOf ||
          s.$ref ||
          (s.enum && !(s.enum as unknown[]).includes(null)),
      )
      .map(([at]) => at);
    expect(wrong).toEqual([]);
  });
});
