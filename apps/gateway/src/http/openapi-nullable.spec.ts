import type { OpenAPIObject } from '@nestjs/swagger';
import { exactNullables } from './openapi-nullable';

const documentWith = (properties: Record<string, unknown>): OpenAPIObject =>
  ({
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: { Thing: { type: 'object', properties } } },
  }) as OpenAPIObject;

const propertiesOf = (doc: OpenAPIObject) =>
  (doc.components!.schemas!.Thing as { properties: Record<string, unknown> }).properties;

describe('exactNullables', () => {
  it('turns a nullable reference into "the referenced schema, or null"', () => {
    const doc = exactNullables(
      documentWith({
        part: {
          nullable: true,
          description: 'null until done',
          type: 'object',
          allOf: [{ $ref: '#/components/schemas/Part' }],
        },
        plain: { allOf: [{ $ref: '#/components/schemas/Part' }] },
      }),
    );
    expect(propertiesOf(doc)).toEqual({
      part: {
        description: 'null until done',
        oneOf: [{ $ref: '#/components/schemas/Part' }, { type: 'object', nullable: true, enum: [null] }],
      },
      plain: { allOf: [{ $ref: '#/components/schemas/Part' }] },
    });
  });

  it('lists null among the values of a nullable enum, once', () => {
    const doc = exactNullables(
      documentWith({
        kind: { type: 'string', nullable: true, enum: ['a', 'b'] },
        done: { type: 'string', nullable: true, enum: ['a', null] },
        strict: { type: 'string', enum: ['a'] },
        note: { type: 'string', nullable: true },
      }),
    );
    expect(propertiesOf(doc)).toEqual({
      kind: { type: 'string', nullable: true, enum: ['a', 'b', null] },
      done: { type: 'string', nullable: true, enum: ['a', null] },
      strict: { type: 'string', enum: ['a'] },
      note: { type: 'string', nullable: true },
    });
  });
});
