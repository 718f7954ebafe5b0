import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { AppError } from '@vap/contracts';
import { AuthenticatedRequest } from '../auth/auth-context';
import { IdempotencyService } from './idempotency.service';
import { requestHash } from './request-hash';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Honours `Idempotency-Key` on the routes that use it: the same key with the same body returns the
 * first response (header Idempotency-Replayed: true) and never runs the command twice; the same key
 * with another body is 409 CONFLICT. Without the header the route behaves as usual.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly keys: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || !req.auth) return next.handle();
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw AppError.validation([
        { field: 'Idempotency-Key', message: 'Idempotency-Key must be 1..255 printable ASCII characters' },
      ]);
    }
    const partnerId = req.auth.partnerId;
    const hash = requestHash(req.method, req.path, req.body);
    return from(this.keys.begin(partnerId, key, hash)).pipe(
      mergeMap((decision) => {
        if (decision.kind === 'replay') {
          res.setHeader('Idempotency-Replayed', 'true');
          res.status(decision.status);
          return of(decision.body);
        }
        return next.handle().pipe(
          mergeMap((body) =>
            from(this.keys.complete(partnerId, key, res.statusCode, body)).pipe(mergeMap(() => of(body))),
          ),
          catchError((err: unknown) =>
            from(this.keys.release(partnerId, key).catch(() => undefined)).pipe(
              mergeMap(() => throwError(() => err)),
            ),
          ),
        );
      }),
    );
  }
}
