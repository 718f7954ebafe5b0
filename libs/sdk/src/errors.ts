import type { ErrorBodyDto, ErrorCode, ErrorDetailDto } from './generated/types.gen';

/** Code of an answer that did not carry the API's error envelope (a proxy's page, an empty body). */
export const UNEXPECTED_RESPONSE = 'UNEXPECTED_RESPONSE';

/**
 * A failed request, as the API's error envelope told it: `{ success: false, error: { code, message, details?,
 * retry_at?, request_id? } }`, with the HTTP status and the request id (from the envelope, else the
 * X-Request-Id response header).
 */
export class VapApiError extends Error {
  override readonly name = 'VapApiError';
  readonly status: number;
  readonly code: ErrorCode | typeof UNEXPECTED_RESPONSE;
  readonly details: ErrorDetailDto[] | undefined;
  readonly requestId: string | undefined;
  /** When a refusal lifts (OUTSIDE_CALLING_WINDOW, FREQUENCY_CAP_REACHED, SMS_LIMIT_REACHED), ISO 8601. */
  readonly retryAt: string | undefined;
  /** The answer's body as received (parsed JSON, else text). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: ErrorCode | typeof UNEXPECTED_RESPONSE;
    message: string;
    details?: ErrorDetailDto[];
    requestId?: string;
    retryAt?: string;
    body?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAt = init.retryAt;
    this.body = init.body;
  }
}

function envelopeError(body: unknown): ErrorBodyDto | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const error = (body as { error?: unknown }).error;
  if (!error || typeof error !== 'object') return undefined;
  const { code, message } = error as Partial<ErrorBodyDto>;
  return typeof code === 'string' && typeof message === 'string' ? (error as ErrorBodyDto) : undefined;
}

/**
 * The error a request ends with: a VapApiError for any HTTP answer (the generated client hands over its
 * parsed body), the original error when no answer came (network failure, abort).
 */
export function toVapApiError(error: unknown, response: Response | undefined): unknown {
  if (!response || error instanceof VapApiError) return error;
  const headerId = response.headers.get('x-request-id') ?? undefined;
  const envelope = envelopeError(error);
  if (!envelope) {
    const text = typeof error === 'string' ? error : JSON.stringify(error);
    return new VapApiError({
      status: response.status,
      code: UNEXPECTED_RESPONSE,
      message: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
      requestId: headerId,
      body: error,
    });
  }
  return new VapApiError({
    status: response.status,
    code: envelope.code,
    message: envelope.message,
    details: envelope.details,
    requestId: envelope.request_id ?? headerId,
    retryAt: envelope.retry_at,
    body: error,
  });
}
