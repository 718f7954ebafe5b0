import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { ok } from '@vap/api';

/** Wraps what an API handler returns in the success envelope; health and metrics keep their own formats. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    // The router matches paths case-insensitively (/API/V2/CALLS is /api/v2/calls), so this test does too.
    const path = String(context.switchToHttp().getRequest().path ?? '').toLowerCase();
    const wrap = path.startsWith('/api/') || path.startsWith('/admin/') || path.startsWith('/console/api/');
    return wrap ? next.handle().pipe(map((data) => ok(data ?? {}))) : next.handle();
  }
}
