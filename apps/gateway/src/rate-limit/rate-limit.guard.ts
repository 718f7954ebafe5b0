import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import type { ConsoleRequest } from '../console/console-auth';
import { GatewayConfig } from '../config/gateway.config';
import { KeyBucket, RATE_LIMIT_BUCKET } from './rate-limit-bucket';
import { applyRateLimit } from './rate-limit-headers';
import { OverLimitMemo } from './over-limit-memo';
import { OwnAndAccountResult, RateLimitService } from './rate-limit.service';

/** One limit a request counts against: its window's id (also OverLimitMemo's), limit and 429 message. */
interface Limit {
  window: string;
  limit: number;
  message: string;
}

/**
 * A request's windows: its own (its API key's, or its console session's), its account's and, for a
 * reseller's request on behalf of a client, the reseller's account's; `hit` counts the request in each.
 */
interface Windows {
  own: Limit;
  account: Limit;
  reseller?: Limit;
  hit: () => Promise<OwnAndAccountResult>;
}

/**
 * Per-key limits of the contract: 10 requests/minute under /calls, 60/minute for everything else; beside
 * them the account's own (RATE_LIMIT_ACCOUNT_*), so that issuing more keys does not multiply what an
 * account may send. A reseller's request on behalf of a client (X-On-Behalf-Of) counts in the client's
 * account window and in the reseller's, so that acting for many clients does not multiply it either. The console's requests (its own routes and the public API's through /console/api/v2)
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
          req.auth.resellerId,
          this.reflector.getAllAndOverride<KeyBucket>(RATE_LIMIT_BUCKET, [
            context.getHandler(),
            context.getClass(),
          ]) ?? 'general',
        );
    await this.enforce(res, windows);
    return true;
  }

  private keyWindows(
    apiKeyId: string,
    partnerId: string,
    resellerId: string | undefined,
    bucket: KeyBucket,
  ): Windows {
    const isCalls = bucket === 'calls';
    const onCalls = isCalls ? ' on /calls' : '';
    const ownLimit = isCalls
      ? this.config.RATE_LIMIT_CALLS_PER_MINUTE
      : this.config.RATE_LIMIT_GENERAL_PER_MINUTE;
    const accountLimit = isCalls
      ? this.config.RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE
      : this.config.RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE;
    return {
      own: {
        window: `key:${apiKeyId}:${bucket}`,
        limit: ownLimit,
        message: `Rate limit exceeded: ${ownLimit} requests per minute for this API key${onCalls}. Retry after 60 seconds.`,
      },
      account: {
        window: `account:${partnerId}:${bucket}`,
        limit: accountLimit,
        message: `Rate limit exceeded: ${accountLimit} requests per minute for this account${onCalls}, all its API keys together. Retry after 60 seconds.`,
      },
      // The reseller's account window is the one its own requests count in.
      reseller: resellerId
        ? {
            window: `account:${resellerId}:${bucket}`,
            limit: accountLimit,
            message: `Rate limit exceeded: ${accountLimit} requests per minute for the reseller's account${onCalls}, its own requests and those on behalf of all its clients together. Retry after 60 seconds.`,
          }
        : undefined,
      hit: () => this.limits.hitKeyAndAccount(apiKeyId, partnerId, bucket, resellerId),
    };
  }

  private consoleWindows(sessionKey: string, partnerId: string): Windows {
    const ownLimit = this.config.RATE_LIMIT_CONSOLE_SESSION_PER_MINUTE;
    const accountLimit = this.config.RATE_LIMIT_CONSOLE_ACCOUNT_PER_MINUTE;
    return {
      own: {
        window: `console-session:${sessionKey}`,
        limit: ownLimit,
        message: `Too many requests from this console session (${ownLimit} a minute). Retry after 60 seconds.`,
      },
      account: {
        window: `console-account:${partnerId}`,
        limit: accountLimit,
        message: `Too many requests from this account's console users (${accountLimit} a minute, all together). Retry after 60 seconds.`,
      },
      hit: () => this.limits.hitConsoleSessionAndAccount(sessionKey, partnerId),
    };
  }

  private async enforce(res: Response, w: Windows): Promise<void> {
    const limits = [w.own, w.account, ...(w.reseller ? [w.reseller] : [])];
    // A window already over its limit stays so until it resets: refused without asking Postgres.
    for (const { window } of limits) {
      const known = this.overLimit.get(window);
      if (known) {
        throw applyRateLimit(
          res,
          known.limit,
          { count: known.limit + 1, resetAt: known.resetAt },
          known.message,
        )!;
      }
    }
    const hit = await w.hit();
    const counted = [
      { ...w.own, result: hit.own },
      { ...w.account, result: hit.account },
      ...(w.reseller && hit.reseller ? [{ ...w.reseller, result: hit.reseller }] : []),
    ];
    for (const c of counted)
      if (c.result.count > c.limit) this.overLimit.remember(c.window, c.limit, c.result, c.message);
    // The first window over its limit answers (the request's own first); within them all, the one with
    // the fewest requests left, so the X-RateLimit-* headers name the nearest limit.
    const binding =
      counted.find((c) => c.result.count > c.limit) ??
      counted.reduce((near, c) => (c.limit - c.result.count < near.limit - near.result.count ? c : near));
    const limited = applyRateLimit(res, binding.limit, binding.result, binding.message);
    if (limited) throw limited;
  }
}
