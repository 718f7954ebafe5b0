import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AuthenticatedRequest } from '../auth/auth-context';
import { GatewayConfig } from '../config/gateway.config';
import { KeyBucket, RATE_LIMIT_BUCKET } from './rate-limit-bucket';
import { applyRateLimit } from './rate-limit-headers';
import { RateLimitService } from './rate-limit.service';

/**
 * Per-key limits of the contract: 10 requests/minute under /calls, 60/minute for everything else. Runs
 * after authentication; answers 429 RATE_LIMITED with Retry-After and X-RateLimit-* headers.
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
    const limit = isCalls
      ? this.config.RATE_LIMIT_CALLS_PER_MINUTE
      : this.config.RATE_LIMIT_GENERAL_PER_MINUTE;
    const result = await this.limits.hit(req.auth.apiKeyId, bucket);
    const limited = applyRateLimit(
      context.switchToHttp().getResponse<Response>(),
      limit,
      result,
      `Rate limit exceeded: ${limit} requests per minute for this API key${isCalls ? ' on /calls' : ''}. Retry after 60 seconds.`,
    );
    if (limited) throw limited;
    return true;
  }
}
