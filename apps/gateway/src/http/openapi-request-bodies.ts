import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;
const COMPONENT_REF = '#/components/schemas/';

/**
 * The validation pipe refuses any field a request DTO does not declare (forbidNonWhitelisted: a 400 that
 * names it), so every object schema a request body uses says `additionalProperties: false`. Objects
 * that take free-form keys (metadata, variables) already say `additionalProperties: true` and keep it.
 */
export function closeRequestBodies(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const seen = new Set<string>();
  const close = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(close);
    if (!value || typeof value !== 'object') return;
    const schema = value as Schema;
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENT_REF)) {
      const name = schema.$ref.slice(COMPONENT_REF.length);
      if (!seen.has(name) && schemas[name]) {
        seen.add(name);
        close(schemas[name]);
      }
      return;
    }
    if (schema.type === 'object' && schema.properties && schema.additionalProperties === undefined) {
      schema.additionalProperties = false;
    }
    Object.values(schema).forEach(close);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const body = (operation as { requestBody?: { content?: Record<string, { schema?: unknown }> } })
        ?.requestBody;
      for (const media of Object.values(body?.content ?? {})) close(media.schema);
    }
  }
  return document;
}
