import SwaggerParser from '@apidevtools/swagger-parser';
import { api } from '../../support';

type Operation = { security?: Record<string, string[]>[]; responses: Record<string, unknown> };

describe('OpenAPI document', () => {
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown> };
  };

  beforeAll(async () => {
    const res = await api('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });

  it('is a valid OpenAPI 3 document', async () => {
    // validate() dereferences and checks the document against the OpenAPI 3 schema.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    expect(doc.openapi).toMatch(/^3\./);
  });

  it('declares bearer security and applies it to every partner route', async () => {
    expect(doc.components.securitySchemes.api_key).toMatchObject({ type: 'http', scheme: 'bearer' });
    const partnerOps = Object.entries(doc.paths).filter(
      ([p]) => p.startsWith('/api/v2/') && !p.startsWith('/api/v2/uploads'),
    );
    expect(partnerOps.length).toBeGreaterThan(0);
    for (const [path, ops] of partnerOps) {
      for (const [method, op] of Object.entries(ops)) {
        // A page's publishable key creates browser sessions, and does nothing else; a browser's CORS preflight
        // of that route carries no credentials at all.
        const preflight = path === '/api/v2/web/sessions' && method === 'options';
        const scheme = path === '/api/v2/web/sessions' ? 'publishable_key' : 'api_key';
        expect({ path, method, security: op.security }).toEqual({
          path,
          method,
          security: preflight ? [] : [{ [scheme]: [] }],
        });
        // Its success: 200, or 202 for work accepted to run later (POST /test-runs), 204 for the preflight.
        const success = preflight ? '204' : '202' in op.responses ? '202' : '200';
        for (const status of [success, preflight ? '403' : '401', '429', '500', '502']) {
          expect({ path, method, has: status in op.responses }).toEqual({ path, method, has: true });
        }
      }
    }
  });

  it('documents the error envelope and every error code', () => {
    const text = JSON.stringify(doc);
    expect(text).toContain('ErrorEnvelopeDto');
    for (const code of [
      'VALIDATION_ERROR',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'RATE_LIMITED',
      'INTERNAL_ERROR',
      'INVALID_EMAIL',
    ]) {
      expect(text).toContain(code);
    }
  });

  it('serves Swagger UI', async () => {
    const res = await api('/api/v2/docs/');
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/swagger-ui/i);
  });
});
