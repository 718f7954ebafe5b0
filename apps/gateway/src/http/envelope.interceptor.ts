import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { ok } from '@vap/contracts';

/** Wraps what an API handler returns in the success envelope; health and metrics keep their own formats. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const path: string = context.switchToHttp().getRequest().path ?? '';
    const wrap = path.startsWith('/api/') || path.startsWith('/admin/');
    return wrap ? next.handle().pipe(map((data) => ok(data ?? {}))) : next.handle();
  }
}
