import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CODE_DESCRIPTIONS, ErrorCode, statusOf } from '@vap/contracts';

/**
 * What the gateway's body handling answers on any route that can take a body, before a handler runs
 * (body-parsers.ts): a body that is not JSON (415), larger than BODY_LIMIT (413), or malformed (400).
 */
const BODY_FAILURES = [
  ErrorCode.VALIDATION_ERROR,
  ErrorCode.PAYLOAD_TOO_LARGE,
  ErrorCode.UNSUPPORTED_MEDIA_TYPE,
] as const;
const BODY_METHODS = ['post', 'put', 'patch'] as const;

/** Adds those answers to every POST, PUT and PATCH operation that does not document them already. */
export function documentBodyFailures(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of BODY_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const code of BODY_FAILURES) {
        const status = String(statusOf(code));
        operation.responses[status] ??= {
          description: `\`${code}\`: ${ERROR_CODE_DESCRIPTIONS[code]}`,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } },
        };
      }
      operation.responses = Object.fromEntries(
        Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
  return document;
}
