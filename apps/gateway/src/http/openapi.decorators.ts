import { applyDecorators, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiHeader, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '@vap/api';
import { ERROR_CODE_DESCRIPTIONS, ErrorCode, statusOf } from '@vap/messages';

/** Documents a 200 (or `status`) whose body is `{ success: true, data: <model> }`. */
export function ApiEnvelope(model: Type<unknown>, description = 'Success', status = 200) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description,
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: { success: { type: 'boolean', enum: [true] }, data: { $ref: getSchemaPath(model) } },
      },
    }),
  );
}

function errorResponse(status: number, codes: ErrorCode[], note?: string) {
  const lines = codes.map((c) => `\`${c}\`: ${ERROR_CODE_DESCRIPTIONS[c]}`);
  return ApiResponse({
    status,
    description: [note, ...lines].filter(Boolean).join('<br>'),
    type: ErrorEnvelopeDto,
  });
}

/** Documents the error envelopes a route can answer, grouped by HTTP status. */
export function ApiErrors(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return applyDecorators(...[...byStatus].map(([status, list]) => errorResponse(status, list)));
}

/**
 * The failures every partner route shares: auth, rate limit, and server or downstream errors; and the
 * X-On-Behalf-Of header a reseller's key may send on any of them (404 when it names none of its clients).
 */
export function ApiPartnerRoute() {
  return applyDecorators(
    ApiBearerAuth('api_key'),
    ApiExtraModels(ErrorEnvelopeDto),
    ApiHeader({
      name: 'X-On-Behalf-Of',
      required: false,
      description:
        'A reseller’s key (full access, or the scope clients:write) acts as the client account this id names: ' +
        'the request is the client’s and is recorded in the client’s audit (GET /clients/{id}/audit). It counts ' +
        'in the rate limits of the key, the client’s account and the reseller’s own account (429 RATE_LIMITED ' +
        'names which). An id that is not one of the caller’s clients is 404 NOT_FOUND.',
      schema: { type: 'string', format: 'uuid' },
    }),
    errorResponse(401, [ErrorCode.UNAUTHORIZED]),
    errorResponse(403, [ErrorCode.FORBIDDEN]),
    errorResponse(404, [ErrorCode.NOT_FOUND], 'Also: X-On-Behalf-Of names none of the caller’s clients'),
    errorResponse(
      429,
      [ErrorCode.RATE_LIMITED],
      'Headers: Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    ),
    ApiServerFailures(),
  );
}

/** 500, and 502 when a downstream service failed or did not answer in time: any route that asks a service. */
export function ApiServerFailures() {
  return applyDecorators(
    errorResponse(500, [ErrorCode.INTERNAL_ERROR]),
    errorResponse(502, [ErrorCode.INTERNAL_ERROR], 'A downstream service failed or did not answer in time'),
  );
}

/** Operator routes: guarded by ADMIN_API_TOKEN. */
export function ApiOperatorRoute() {
  return applyDecorators(
    ApiBearerAuth('admin_token'),
    errorResponse(401, [ErrorCode.UNAUTHORIZED]),
    errorResponse(429, [ErrorCode.RATE_LIMITED], 'Per client address; also after repeated wrong tokens'),
    errorResponse(500, [ErrorCode.INTERNAL_ERROR]),
  );
}
