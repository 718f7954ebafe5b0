import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AuthenticatedRequest } from '../auth/auth-context';
import { GatewayConfig } from '../config/gateway.config';
import { KeyBucket, RATE_LIMIT_BUCKET } from './rate-limit-bucket';
import { applyRateLimit } from './rate-limit-headers';
import { RateLimitService } from './rate-limit.service';

/**
 * Per-key limits of the contract: 10 requests/minute under /calls, 60/minute for everything else; beside
 * them the account's own (RATE_LIMIT_ACCOUNT_*), so that issuing more keys does not multiply what an
 * account may send. Runs after authentication and before any body is read; answers 429 RATE_LIMITED with
 * Retry-After and the X-RateLimit-* headers of whichever limit is nearer.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
    private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!req.auth) return true;
    const bucket =
      this.reflector.getAllAndOverride<KeyBucket>(RATE_LIMIT_BUCKET, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'general';
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
    // The limit with fewer requests left answers (a key over its own limit first).
    const accountBinds = key.count <= keyLimit && accountLimit - account.count < keyLimit - key.count;
    const limited = accountBinds
      ? applyRateLimit(
          context.switchToHttp().getResponse<Response>(),
          accountLimit,
          account,
          `Rate limit exceeded: ${accountLimit} requests per minute for this account${onCalls}, all its API keys together. Retry after 60 seconds.`,
        )
      : applyRateLimit(
          context.switchToHttp().getResponse<Response>(),
          keyLimit,
          key,
          `Rate limit exceeded: ${keyLimit} requests per minute for this API key${onCalls}. Retry after 60 seconds.`,
        );
    if (limited) throw limited;
    return true;
  }
}
