import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, ErrorCode } from '@vap/messages';
import { GatewayConfig } from '../config/gateway.config';
import { onPublicBase } from '../http/public-url';

/** Sec-Fetch-Site values of a request a page of another origin made (a browser sends `same-origin` or `none`). */
const OTHER_SITES = new Set(['cross-site', 'same-site']);

/**
 * The console's origin: where its pages are served (PUBLIC_BASE_URL), the links to them, and which requests come
 * from them. A
 * browser sends Origin on every POST, PATCH and DELETE (and Sec-Fetch-Site with it), so a request naming another
 * origin is a page of another site acting with the user's browser: it is refused. A request without either
 * header is not a browser's (curl, a script), so no other site can have made it, and it goes on.
 */
@Injectable()
export class ConsoleOrigin {
  /** PUBLIC_BASE_URL's origin and the base itself (required, so always set). */
  private readonly publicOrigin: string;
  private readonly publicBase: string;

  constructor(config: GatewayConfig) {
    this.publicBase = config.PUBLIC_BASE_URL;
    this.publicOrigin = new URL(config.PUBLIC_BASE_URL).origin;
  }

  /**
   * A link to a console page (`/console/invitations/...`) on PUBLIC_BASE_URL: never on the Host or
   * X-Forwarded-Proto a request claims, which anyone can write, so that a link handed out points at this
   * platform.
   */
  link(path: string): string {
    return onPublicBase(this.publicBase, path);
  }

  /** 403 FORBIDDEN for a request from a page of another origin. */
  refuseCrossOrigin(req: Request): void {
    const site = req.headers['sec-fetch-site'];
    if (typeof site === 'string' && OTHER_SITES.has(site.toLowerCase()))
      throw new AppError(ErrorCode.FORBIDDEN, 'Cross-origin requests to the console API are refused');
    const origin = req.headers.origin;
    if (origin === undefined) return;
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    // The gateway's public origin, or (when a proxy keeps the Host it was asked) the host the browser asked:
    // both name this gateway, and a page of another site can set neither.
    const same =
      parsed !== null &&
      (parsed.origin === this.publicOrigin || (!!parsed.host && parsed.host === req.get('host')));
    if (!same)
      throw new AppError(ErrorCode.FORBIDDEN, 'Cross-origin requests to the console API are refused');
  }
}

/**
 * Runs before the body is read into the handler on the console routes without a session (sign-in, accepting an
 * invitation, a password reset): a page of another site may not sign its visitor in, nor use up their link.
 */
@Injectable()
export class ConsoleSameOriginGuard implements CanActivate {
  constructor(private readonly origin: ConsoleOrigin) {}

  canActivate(context: ExecutionContext): boolean {
    this.origin.refuseCrossOrigin(context.switchToHttp().getRequest<Request>());
    return true;
  }
}
