import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import type { ConsoleRequest } from '../console/console-auth';
import { GatewayConfig } from '../config/gateway.config';
import { KeyBucket, RATE_LIMIT_BUCKET } from './rate-limit-bucket';
import { applyRateLimit } from './rate-limit-headers';
import { OverLimitMemo } from './over-limit-memo';
import { OwnAndAccountResult, RateLimitService } from './rate-limit.service';

/** A request's two windows: its own (its API key's, or its console session's) and its account's. */
interface Windows {
  ownWindow: string;
  accountWindow: string;
  ownLimit: number;
  accountLimit: number;
  ownMessage: string;
  accountMessage: string;
  hit: () => Promise<OwnAndAccountResult>;
}

/**
 * Per-key limits of the contract: 10 requests/minute under /calls, 60/minute for everything else; beside
 * them the account's own (RATE_LIMIT_ACCOUNT_*), so that issuing more keys does not multiply what an
 * account may send. The console's requests (its own routes and the public API's through /console/api/v2)
 * have no API key: they count per console session and per account in windows of their own
 * (RATE_LIMIT_CONSOLE_*), so a page that polls never spends an API key's or the account's API budget. Runs
 * after authentication and before any body is read; answers 429 RATE_LIMITED with Retry-After and the
 * X-RateLimit-* headers of whichever limit is nearer. A window this replica saw over its limit is refused
 * from memory until it resets (OverLimitMemo).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
    private readonly config: GatewayConfig,
  ) {}

  private readonly overLimit = new OverLimitMemo();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ConsoleRequest>();
    if (!req.auth) return true;
    const res = context.switchToHttp().getResponse<Response>();
    const windows = req.consoleSession
      ? this.consoleWindows(req.consoleSession.tokenHash.toString('hex'), req.auth.partnerId)
      : this.keyWindows(
          req.auth.apiKeyId,
          req.auth.partnerId,
          this.reflector.getAllAndOverride<KeyBucket>(RATE_LIMIT_BUCKET, [
            context.getHandler(),
            context.getClass(),
          ]) ?? 'general',
        );
    await this.enforce(res, windows);
    return true;
  }

  private keyWindows(apiKeyId: string, partnerId: string, bucket: KeyBucket): Windows {
    const isCalls = bucket === 'calls';
    const onCalls = isCalls ? ' on /calls' : '';
    const ownLimit = isCalls
      ? this.config.RATE_LIMIT_CALLS_PER_MINUTE
      : this.config.RATE_LIMIT_GENERAL_PER_MINUTE;
    const accountLimit = isCalls
      ? this.config.RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE
      : this.config.RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE;
    return {
      ownWindow: `key:${apiKeyId}:${bucket}`,
      accountWindow: `account:${partnerId}:${bucket}`,
      ownLimit,
      accountLimit,
      ownMessage: `Rate limit exceeded: ${ownLimit} requests per minute for this API key${onCalls}. Retry after 60 seconds.`,
      accountMessage: `Rate limit exceeded: ${accountLimit} requests per minute for this account${onCalls}, all its API keys together. Retry after 60 seconds.`,
      hit: () => this.limits.hitKeyAndAccount(apiKeyId, partnerId, bucket),
    };
  }

  private consoleWindows(sessionKey: string, partnerId: string): Windows {
    const ownLimit = this.config.RATE_LIMIT_CONSOLE_SESSION_PER_MINUTE;
    const accountLimit = this.config.RATE_LIMIT_CONSOLE_ACCOUNT_PER_MINUTE;
    return {
      ownWindow: `console-session:${sessionKey}`,
      accountWindow: `console-account:${partnerId}`,
      ownLimit,
      accountLimit,
      ownMessage: `Too many requests from this console session (${ownLimit} a minute). Retry after 60 seconds.`,
      accountMessage: `Too many requests from this account's console users (${accountLimit} a minute, all together). Retry after 60 seconds.`,
      hit: () => this.limits.hitConsoleSessionAndAccount(sessionKey, partnerId),
    };
  }

  private async enforce(res: Response, w: Windows): Promise<void> {
    // A window already over its limit stays so until it resets: refused without asking Postgres.
    const known = this.overLimit.get(w.ownWindow) ?? this.overLimit.get(w.accountWindow);
    if (known) {
      throw applyRateLimit(
        res,
        known.limit,
        { count: known.limit + 1, resetAt: known.resetAt },
        known.message,
      )!;
    }
    const { own, account } = await w.hit();
    if (own.count > w.ownLimit) this.overLimit.remember(w.ownWindow, w.ownLimit, own, w.ownMessage);
    if (account.count > w.accountLimit)
      this.overLimit.remember(w.accountWindow, w.accountLimit, account, w.accountMessage);
    // The limit with fewer requests left answers (the request's own window over its limit first).
    const accountBinds = own.count <= w.ownLimit && w.accountLimit - account.count < w.ownLimit - own.count;
    const limited = accountBinds
      ? applyRateLimit(res, w.accountLimit, account, w.accountMessage)
      : applyRateLimit(res, w.ownLimit, own, w.ownMessage);
    if (limited) throw limited;
  }
}
