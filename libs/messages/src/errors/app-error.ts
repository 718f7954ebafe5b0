import { RpcException } from '@nestjs/microservices';
import { ErrorCode, statusOf } from './error-code';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The serialisable form of an error as it crosses NATS and reaches the gateway. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  status: number;
  details?: ErrorDetail[];
  /** When the refused request may succeed (ISO 8601): a calling window's opening, a frequency cap's end. */
  retry_at?: string;
}

/**
 * The one exception type of the platform: a code, a partner-facing message and an HTTP status.
 * It is an RpcException so that Nest's RPC layer passes it to the transport intact instead of
 * replacing it with a generic error.
 */
export class AppError extends RpcException {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly retryAt?: string;

  constructor(
    code: ErrorCode,
    message: string,
    options: { status?: number; details?: ErrorDetail[]; retryAt?: string } = {},
  ) {
    const status = options.status ?? statusOf(code);
    super({
      code,
      message,
      status,
      details: options.details,
      retry_at: options.retryAt,
    } satisfies ErrorPayload);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.retryAt = options.retryAt;
  }

  static isPayload(value: unknown): value is ErrorPayload {
    const v = value as Partial<ErrorPayload> | null;
    return (
      !!v &&
      typeof v === 'object' &&
      typeof v.code === 'string' &&
      typeof v.message === 'string' &&
      typeof v.status === 'number'
    );
  }

  static validation(details: ErrorDetail[], message?: string): AppError {
    return new AppError(
      ErrorCode.VALIDATION_ERROR,
      message ?? `Invalid request: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`,
      { details: details.length ? details : undefined },
    );
  }

  static notFound(what: string): AppError {
    return new AppError(ErrorCode.NOT_FOUND, `${what} not found`);
  }

  static conflict(message: string): AppError {
    return new AppError(ErrorCode.CONFLICT, message);
  }

  /** A downstream dependency failed or timed out: 502, never a hang. */
  static downstream(message = 'A downstream service did not answer in time; retry'): AppError {
    return new AppError(ErrorCode.INTERNAL_ERROR, message, { status: 502 });
  }

  static internal(message = 'Unexpected server error; retry'): AppError {
    return new AppError(ErrorCode.INTERNAL_ERROR, message);
  }

  toPayload(): ErrorPayload {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      details: this.details,
      retry_at: this.retryAt,
    };
  }

  static fromPayload(payload: ErrorPayload): AppError {
    return new AppError(payload.code, payload.message, {
      status: payload.status,
      details: payload.details,
      retryAt: typeof payload.retry_at === 'string' ? payload.retry_at : undefined,
    });
  }
}
