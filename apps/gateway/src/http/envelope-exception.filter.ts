import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { ErrorEnvelope } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { databaseUnavailable, isDatabaseUnavailable } from '@vap/persistence';
import { redactUrl } from '@vap/runtime';
import { closeUnreadBody } from './body-parsers';

/** body-parser and express signal their failures with a `type` and a `status`. */
interface ParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.VALIDATION_ERROR,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.NOT_FOUND,
  409: ErrorCode.CONFLICT,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.RATE_LIMITED,
};

/**
 * Turns every failure into the contract's error envelope. Known failures keep their code and message;
 * a database that cannot be reached is a failed dependency (502 INTERNAL_ERROR); anything unexpected is
 * logged with an error id and answered 500 INTERNAL_ERROR without internals.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request & { id?: string }>();
    const res = ctx.getResponse<Response>();
    if (
      exception instanceof HttpException &&
      /^\/(health|metrics)(\/|$)/.test(req.path) &&
      exception.getStatus() !== 404
    ) {
      // Health probes keep terminus' own body; the APIs, carrier callbacks and signed URLs speak the envelope.
      res.status(exception.getStatus()).json(exception.getResponse());
      return;
    }
    const error = this.toAppError(exception, req);
    const body: ErrorEnvelope = {
      success: false,
      error: {
        code: error.code,
        message: error.message,
        details: error.details,
        retry_at: error.retryAt,
        request_id: req.id,
      },
    };
    if (res.headersSent) return;
    // A request refused before its body was read (401, 413, 429...): the rest of the body is not read either.
    closeUnreadBody(req, res);
    if (error.retryAt) {
      const seconds = Math.ceil((Date.parse(error.retryAt) - Date.now()) / 1000);
      res.setHeader('Retry-After', String(Math.max(1, seconds)));
    }
    res.status(error.status).json(body);
  }

  private toAppError(exception: unknown, req: Request & { id?: string }): AppError {
    if (exception instanceof AppError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        return new AppError(ErrorCode.NOT_FOUND, `No route ${req.method} ${req.path}`);
      }
      if (status === 400 && exception.message.toLowerCase().includes('json')) {
        return new AppError(ErrorCode.VALIDATION_ERROR, 'Malformed JSON body');
      }
      const code = CODE_BY_STATUS[status];
      if (code) return new AppError(code, exception.message, { status });
    }
    const parser = exception as ParserError;
    switch (parser?.type) {
      case 'entity.too.large':
        return new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'Request body exceeds the size limit');
      case 'entity.parse.failed':
        return new AppError(ErrorCode.VALIDATION_ERROR, 'Malformed JSON body');
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported body encoding or charset');
      case 'request.aborted':
      case 'request.size.invalid':
        return new AppError(ErrorCode.VALIDATION_ERROR, 'Request body was incomplete');
    }
    const status = parser?.status ?? parser?.statusCode;
    if (typeof status === 'number' && CODE_BY_STATUS[status]) {
      return new AppError(CODE_BY_STATUS[status], 'Invalid request', { status });
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(
        `${req.method} ${req.path}: the database is unavailable: ${(exception as Error).message}`,
      );
      return databaseUnavailable();
    }
    const errorId = randomUUID();
    this.logger.error(
      `unexpected error ${errorId} on ${req.method} ${redactUrl(req.path)}: ${exception instanceof Error ? exception.stack : String(exception)}`,
    );
    return AppError.internal(`Unexpected server error (error id ${errorId}); retry`);
  }
}
