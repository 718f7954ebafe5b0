import type { OpenAPIObject } from '@nestjs/swagger';
import type { ResponsesObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_CODE_DESCRIPTIONS, ErrorCode, statusOf } from '@vap/messages';

const ENVELOPE = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } };

/** `VALIDATION_ERROR` as the answer's own status, for the HTTP-level refusals that are not a 400. */
const REQUEST_TOO_LARGE = {
  description:
    '`VALIDATION_ERROR`: the URL or the request headers are larger than the server accepts (answered before routing)',
  content: ENVELOPE,
};

/**
 * What the gateway answers on any route before a handler runs, documented on every operation:
 * - every route: a path or query string with a NUL character or an unpaired surrogate (input-rules.ts) is a
 *   400, and a URL or headers over Node's size limit a 431 (client-errors.ts);
 * - routes that take a body (body-parsers.ts): not JSON (415), larger than BODY_LIMIT (413), malformed or too
 *   deeply nested (400).
 */
const BODY_FAILURES = [ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.UNSUPPORTED_MEDIA_TYPE] as const;
const BODY_METHODS = new Set(['post', 'put', 'patch']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

function documentCode(responses: ResponsesObject, code: ErrorCode): void {
  responses[String(statusOf(code))] ??= {
    description: `\`${code}\`: ${ERROR_CODE_DESCRIPTIONS[code]}`,
    content: ENVELOPE,
  };
}

/** Adds those answers to every operation that does not document them already. */
export function documentGatewayFailures(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      documentCode(operation.responses, ErrorCode.VALIDATION_ERROR);
      operation.responses['431'] ??= REQUEST_TOO_LARGE;
      if (BODY_METHODS.has(method)) for (const code of BODY_FAILURES) documentCode(operation.responses, code);
      operation.responses = Object.fromEntries(
        Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
  return document;
}
