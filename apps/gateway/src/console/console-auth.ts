import { createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { ConsoleRole } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { AuthenticatedRequest } from '../auth/auth-context';
import { GatewayConfig } from '../config/gateway.config';
import { ConsoleSession, ConsoleSessionsService, SESSION_MAX_MS } from './console-sessions.service';
import { ConsoleOrigin } from './console-origin';
import { cookieValue, SESSION_COOKIE } from './console-tokens';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Set on a request of the console's mirror of the public API (/console/api/v2/...), before routing. */
const CONSOLE_MIRROR = Symbol('consoleMirror');

export type ConsoleRequest = AuthenticatedRequest & {
  [CONSOLE_MIRROR]?: true;
  consoleSession?: ConsoleSession;
};

/**
 * Serves the public API's routes to the console under /console/api/v2: the request is routed as /api/v2/...
 * (the same controllers, validation and services) and marked, so that the API-key guard authenticates it by
 * the session cookie instead, and nothing else does. Not mounted on a path, so Express keeps the rewrite.
 */
export function consoleApiMirror(req: Request, _res: Response, next: () => void): void {
  if (req.url.startsWith('/console/api/v2/') || req.url.startsWith('/console/api/v2?')) {
    req.url = req.url.slice('/console'.length);
    (req as ConsoleRequest)[CONSOLE_MIRROR] = true;
  }
  next();
}

/** Marks the console's own routes: authenticated by the session cookie (in the API-key guard's place). */
export const CONSOLE_SESSION_ROUTE = 'vap:console-session-route';
export const ConsoleSessionRoute = () => SetMetadata(CONSOLE_SESSION_ROUTE, true);

/** The session a console route was authenticated with. */
export const CurrentConsoleSession = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ConsoleSession => {
    const session = ctx.switchToHttp().getRequest<ConsoleRequest>().consoleSession;
    if (!session) throw new Error('CurrentConsoleSession used on a route without a console session');
    return session;
  },
);

export function isConsoleMirror(req: Request): boolean {
  return (req as ConsoleRequest)[CONSOLE_MIRROR] === true;
}

/** What a role may do through the console: every role reads; all but viewers change the account's resources. */
export const ROLE_MAY = {
  write: (role: ConsoleRole) => role !== 'viewer',
  manageKeys: (role: ConsoleRole) => role === 'owner' || role === 'admin',
  manageTeam: (role: ConsoleRole) => role === 'owner' || role === 'admin',
};

/**
 * On a public route the console mirrors: 403 when the request comes from a console session whose role `may`
 * refuses (`what`: what the role cannot do). A request with an API key passes (its scopes decide).
 */
export function assertConsoleRoleMay(req: Request, may: (role: ConsoleRole) => boolean, what: string): void {
  const session = (req as ConsoleRequest).consoleSession;
  if (session && !may(session.user.role))
    throw new AppError(ErrorCode.FORBIDDEN, `The ${session.user.role} role cannot ${what}`);
}

/**
 * Authenticates console requests by their session cookie: 401 without a live session, 403 for a suspended or
 * unapproved account, and for a request that changes something, 403 from another origin (ConsoleOrigin) or
 * without the session's CSRF token in X-CSRF-Token. The cookie is HttpOnly, SameSite=Strict, limited to
 * /console, and Secure outside development and tests.
 */
@Injectable()
export class ConsoleAuth {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly config: GatewayConfig,
    private readonly origin: ConsoleOrigin,
  ) {}

  /**
   * Authenticates a console request (its own routes, or the public API's through the mirror): the session's
   * account and the role's say on writing for the mirror. The user stands where a key would in req.auth, but
   * rate limits count a console request per session and account (RateLimitGuard), never as an API key's.
   */
  async authenticateRequest(req: ConsoleRequest): Promise<void> {
    const session = await this.authenticate(req);
    if (isConsoleMirror(req) && !SAFE_METHODS.has(req.method) && !ROLE_MAY.write(session.user.role))
      throw new AppError(
        ErrorCode.FORBIDDEN,
        `The ${session.user.role} role can read but not change anything`,
      );
    const { name: _name, reseller: _reseller, ...partner } = session.partner;
    req.auth = { partnerId: partner.id, apiKeyId: session.user.id, partner };
  }

  async authenticate(req: ConsoleRequest): Promise<ConsoleSession> {
    const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
    const session = token ? await this.sessions.load(token) : null;
    if (!session)
      throw new AppError(ErrorCode.UNAUTHORIZED, 'Not signed in to the console (or the session ended)');
    if (session.partner.status === 'suspended')
      throw new AppError(ErrorCode.FORBIDDEN, 'This account is suspended');
    if (session.partner.status !== 'approved')
      throw new AppError(ErrorCode.FORBIDDEN, 'This account is not yet approved');
    if (!SAFE_METHODS.has(req.method)) this.checkCsrf(req, session);
    req.consoleSession = session;
    return session;
  }

  private checkCsrf(req: Request, session: ConsoleSession): void {
    this.origin.refuseCrossOrigin(req);
    const sent = Buffer.from(String(req.headers['x-csrf-token'] ?? ''), 'utf8');
    const expected = Buffer.from(session.csrfToken, 'utf8');
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected))
      // Said for the person at the page: a stale tab after signing in again is the usual cause. No details:
      // the console shows them beside the message, and a header name means nothing to that person.
      throw new AppError(
        ErrorCode.FORBIDDEN,
        'Your console session changed (signed in again elsewhere?). Reload the page and try again.',
      );
  }

  setCookie(res: Response, token: string): void {
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: !['development', 'test'].includes(this.config.NODE_ENV),
      path: '/console',
      maxAge: SESSION_MAX_MS,
    });
  }

  clearCookie(res: Response): void {
    res.clearCookie(SESSION_COOKIE, { path: '/console' });
  }
}
