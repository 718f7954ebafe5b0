import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { unsupportedBodyOf } from './body-parsers';

/**
 * Refuses (415) a body jsonOnly marked as neither JSON nor another type its route takes. A guard runs only
 * for a matched route, so an unknown route answers 404 whatever its body.
 */
@Injectable()
export class UnsupportedBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const refusal = unsupportedBodyOf(context.switchToHttp().getRequest<Request>());
    if (refusal) throw refusal;
    return true;
  }
}
