import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AuthenticatedRequest } from '../auth/auth-context';
import { GatewayConfig } from '../config/gateway.config';
import { KeyBucket, RATE_LIMIT_BUCKET } from './rate-limit-bucket';
import { applyRateLimit } from './rate-limit-headers';
import { OverLimitMemo } from './over-limit-memo';
import { RateLimitService } from './rate-limit.service';

/**
 * Per-key limits of the contract: 10 requests/minute under /calls, 60/minute for everything else; beside
 * them the account's own (RATE_LIMIT_ACCOUNT_*), so that issuing more keys does not multiply what an
 * account may send. Runs after authentication and before any body is read; answers 429 RATE_LIMITED with
 * Retry-After and the X-RateLimit-* headers of whichever limit is nearer. A window this replica saw over its
 * limit is refused from memory until it resets (OverLimitMemo).
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
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!req.auth) return true;
    const res = context.switchToHttp().getResponse<Response>();
    const bucket =
      this.reflector.getAllAndOverride<KeyBucket>(RATE_LIMIT_BUCKET, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'general';
    const keyWindow = `key:${req.auth.apiKeyId}:${bucket}`;
    const accountWindow = `account:${req.auth.partnerId}:${bucket}`;
    // A window already over its limit stays so until it resets: refused without asking Postgres.
    const known = this.overLimit.get(keyWindow) ?? this.overLimit.get(accountWindow);
    if (known) {
      throw applyRateLimit(
        res,
        known.limit,
        { count: known.limit + 1, resetAt: known.resetAt },
        known.message,
      )!;
    }
    const isCalls = bucket === 'calls';
    const onCalls = isCalls ? ' on /calls' : '';
    const keyLimit = isCalls
      ? this.config.RATE_LIMIT_CALLS_PER_MINUTE
      : this.config.RATE_LIMIT_GENERAL_PER_MINUTE;
    const accountLimit = isCalls
      ? this.config.RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE
      : this.config.RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE;
    const { key, account } = await this.limits.hitKeyAndAccount(
      req.auth.apiKeyId,
      req.auth.partnerId,
      bucket,
    );
    const keyMessage = `Rate limit exceeded: ${keyLimit} requests per minute for this API key${onCalls}. Retry after 60 seconds.`;
    const accountMessage = `Rate limit exceeded: ${accountLimit} requests per minute for this account${onCalls}, all its API keys together. Retry after 60 seconds.`;
    if (key.count > keyLimit) this.overLimit.remember(keyWindow, keyLimit, key, keyMessage);
    if (account.count > accountLimit)
      this.overLimit.remember(accountWindow, accountLimit, account, accountMessage);
    // The limit with fewer requests left answers (a key over its own limit first).
    const accountBinds = key.count <= keyLimit && accountLimit - account.count < keyLimit - key.count;
    const limited = accountBinds
      ? applyRateLimit(res, accountLimit, account, accountMessage)
      : applyRateLimit(res, keyLimit, key, keyMessage);
    if (limited) throw limited;
    return true;
  }
}
