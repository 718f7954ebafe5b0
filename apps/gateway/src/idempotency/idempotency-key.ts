import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '@vap/messages';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotency-Replayed';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key` (undefined without one), checked for shape only. The gateway keeps no
 * state for it: the service that acts on the request deduplicates by the key, so a retry is safe whatever
 * this gateway (or another replica, or one that crashed) saw of the first attempt.
 */
export const IdempotencyKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined => {
    const key = ctx.switchToHttp().getRequest<Request>().headers[IDEMPOTENCY_HEADER];
    if (key === undefined) return undefined;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw AppError.validation([
        { field: 'Idempotency-Key', message: 'Idempotency-Key must be 1..255 printable ASCII characters' },
      ]);
    }
    return key;
  },
);
