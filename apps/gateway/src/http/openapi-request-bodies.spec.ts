import type { OpenAPIObject } from '@nestjs/swagger';
import { closeRequestBodies } from './openapi-request-bodies';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

describe('closeRequestBodies', () => {
  it('refuses undeclared fields in request body objects, nested ones included, and nowhere else', () => {
    const doc = closeRequestBodies({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/things': {
          post: {
            requestBody: json({ $ref: '#/components/schemas/CreateThing' }),
            responses: { '200': { description: 'ok', ...json({ $ref: '#/components/schemas/Thing' }) } },
          },
        },
      },
      components: {
        schemas: {
          CreateThing: {
            type: 'object',
            properties: {
              part: { $ref: '#/components/schemas/PartInput' },
              metadata: { type: 'object', additionalProperties: true },
            },
          },
          PartInput: { type: 'object', properties: { n: { type: 'integer' } } },
          Thing: { type: 'object', properties: { n: { type: 'integer' } } },
        },
      },
    } as OpenAPIObject);
    const schemas = doc.components!.schemas as Record<string, Record<string, unknown>>;
    expect(schemas.CreateThing.additionalProperties).toBe(false);
    expect(schemas.PartInput.additionalProperties).toBe(false);
    expect((schemas.CreateThing.properties as Record<string, unknown>).metadata).toEqual({
      type: 'object',
      additionalProperties: true,
    });
    expect(schemas.Thing.additionalProperties).toBeUndefined();
  });
});
