import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AppError, ErrorCode, scopeAllows } from '@vap/messages';
import { ApiKeysService } from '../accounts/api-keys.service';
import { CONSOLE_SESSION_ROUTE, ConsoleAuth, isConsoleMirror } from '../console/console-auth';
import { AddressRateLimiter } from '../rate-limit/address-rate-limit';
import { ON_BEHALF_HEADER, OnBehalfService } from '../clients/on-behalf.service';
import { AuthenticatedRequest } from './auth-context';
import { requiredScope } from './route-scopes';
import { IS_PUBLIC } from '@vap/runtime';

const KEY_PARAM_NAMES = ['api_key', 'apikey', 'apiKey', 'key', 'token', 'access_token'];

function unauthorized(message: string): AppError {
  return new AppError(ErrorCode.UNAUTHORIZED, message);
}

/**
 * Authenticates partner routes with `Authorization: Bearer rg_live_...` only: 401 for a missing or invalid
 * key, 403 for a key whose partner is suspended or not yet approved. The console's requests are
 * authenticated by their session instead (ConsoleAuth). Requests without a valid key count against their
 * client address's limit (429 over it), so nobody can send them without bound. A key limited to scopes
 * answers 403 on a route whose scope it lacks (route-scopes.ts says which scope a route needs). A reseller's
 * key may act as one of its clients with X-On-Behalf-Of (OnBehalfService).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly addressLimits: AddressRateLimiter,
    private readonly consoleAuth: ConsoleAuth,
    private readonly onBehalf: OnBehalfService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]))
      return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // The console authenticates by its session cookie, on its own routes and on the public API's through
    // /console/api/v2; an API key is never looked at there, and a cookie never anywhere else.
    if (
      isConsoleMirror(req) ||
      this.reflector.getAllAndOverride<boolean>(CONSOLE_SESSION_ROUTE, [
        context.getHandler(),
        context.getClass(),
      ])
    ) {
      await this.consoleAuth.authenticateRequest(req);
      return true;
    }
    try {
      return await this.authenticate(req, context.switchToHttp().getResponse<Response>());
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.UNAUTHORIZED) {
        await this.addressLimits.enforce(req, context.switchToHttp().getResponse<Response>(), 'invalid_key');
      }
      throw err;
    }
  }

  private async authenticate(req: AuthenticatedRequest, res: Response): Promise<boolean> {
    const header = req.headers.authorization;
    if (!header) {
      // The body is not read yet (it is parsed only once the request is admitted), so the message names the
      // one place a key is taken whether or not the body holds one.
      const inQuery = KEY_PARAM_NAMES.some((k) => k in (req.query ?? {}));
      throw unauthorized(
        inQuery
          ? 'API keys are accepted only in the Authorization header (Authorization: Bearer rg_live_...)'
          : 'Missing API key: send it in the Authorization header (Authorization: Bearer rg_live_...), never in the query or the body',
      );
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('Malformed Authorization header: expected Bearer rg_live_...');
    const found = await this.apiKeys.authenticate(match[1]);
    if (!found) throw unauthorized('Invalid API key');
    if (found.partner.status === 'suspended') {
      throw new AppError(ErrorCode.FORBIDDEN, 'This account is suspended');
    }
    if (found.partner.status !== 'approved') {
      throw new AppError(ErrorCode.FORBIDDEN, 'This account is not yet approved');
    }
    req.auth = {
      partnerId: found.partner.id,
      apiKeyId: found.keyId,
      partner: { ...found.partner },
      scopes: found.scopes,
    };
    // The route's template (`/api/v2/calls/:id`), so an id never reads as a path segment of a rule.
    const required = requiredScope(
      req.method,
      (req.route as { path?: string } | undefined)?.path ?? req.path,
    );
    if (!scopeAllows(found.scopes, required)) {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        required
          ? `This API key lacks the scope ${required}`
          : 'This route needs an API key with full access (a key without scopes)',
      );
    }
    // A reseller's key acting as one of its clients: from here on the request is the client's.
    if (req.headers[ON_BEHALF_HEADER] !== undefined) {
      req.auth = await this.onBehalf.actAs(req, res, req.auth);
    }
    return true;
  }
}
