import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

/** The value null and nothing else, in OpenAPI 3.0 terms (3.0 has no `type: 'null'`). */
const nullOnly = (): Schema => ({ type: 'object', nullable: true, enum: [null] });

/**
 * Makes every `nullable: true` of the document mean what it says under OpenAPI 3.0.3, where `nullable`
 * only adds null to the `type` beside it and every other keyword keeps its veto:
 * - a nullable reference (@nestjs/swagger writes `{ type: 'object', nullable: true, allOf: [{ $ref }] }`,
 *   which validators read as "must be the referenced object") becomes `oneOf: [{ $ref }, null]`;
 * - a nullable enum lists null among its values.
 * DTOs keep declaring `nullable: true` as usual; this runs once on the generated document.
 */
export function exactNullables(document: OpenAPIObject): OpenAPIObject {
  visit(document.components);
  visit(document.paths);
  return document;
}

function visit(value: unknown): void {
  if (Array.isArray(value)) {
    value.forEach(visit);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const schema = value as Schema;
  if (schema.nullable === true) {
    const refs = nullableRefTargets(schema);
    if (refs) {
      delete schema.nullable;
      delete schema.type;
      delete schema.allOf;
      delete schema.$ref;
      schema.oneOf = [...refs, nullOnly()];
    } else if (Array.isArray(schema.enum) && !schema.enum.includes(null)) {
      schema.enum = [...schema.enum, null];
    }
  }
  Object.values(schema).forEach(visit);
}

/** The references a nullable schema stands for: `{ $ref }` itself, or an `allOf` of references only. */
function nullableRefTargets(schema: Schema): Schema[] | undefined {
  if (typeof schema.$ref === 'string') return [{ $ref: schema.$ref }];
  const allOf = schema.allOf;
  if (
    Array.isArray(allOf) &&
    allOf.length === 1 &&
    typeof (allOf[0] as Schema)?.$ref === 'string' &&
    Object.keys(allOf[0] as Schema).length === 1
  ) {
    return [allOf[0] as Schema];
  }
  return undefined;
}
