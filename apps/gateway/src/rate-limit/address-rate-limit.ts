import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { GatewayConfig } from '../config/gateway.config';
import { clientAddress } from '../http/client-address';
import { AddressBucket, isAddressBucket, RATE_LIMIT_BUCKET } from './rate-limit-bucket';
import { applyRateLimit } from './rate-limit-headers';
import { RateLimitService } from './rate-limit.service';

const SURFACES: Record<AddressBucket, string> = {
  admin: 'the operator API',
  callbacks: 'carrier callbacks',
  uploads: 'signed URLs',
  console: 'console sign-in and links',
  invalid_key: 'requests without a valid API key',
};

/**
 * Per-client-address limits of the surfaces without an API key, counted in Postgres like the per-key
 * limits so that every replica shares them.
 */
@Injectable()
export class AddressRateLimiter {
  constructor(
    private readonly limits: RateLimitService,
    private readonly config: GatewayConfig,
  ) {}

  limitOf(bucket: AddressBucket): number {
    switch (bucket) {
      case 'admin':
        return this.config.RATE_LIMIT_ADDRESS_ADMIN_PER_MINUTE;
      case 'callbacks':
        return this.config.RATE_LIMIT_ADDRESS_CALLBACKS_PER_MINUTE;
      case 'uploads':
        return this.config.RATE_LIMIT_ADDRESS_UPLOADS_PER_MINUTE;
      case 'console':
        return this.config.RATE_LIMIT_ADDRESS_CONSOLE_PER_MINUTE;
      case 'invalid_key':
        return this.config.RATE_LIMIT_ADDRESS_INVALID_KEY_PER_MINUTE;
    }
  }

  /** Counts the request against its address; throws 429 RATE_LIMITED (with Retry-After) over the limit. */
  async enforce(req: Request, res: Response, bucket: AddressBucket): Promise<void> {
    const address = clientAddress(req, this.config.TRUST_PROXY_HOPS);
    const limit = this.limitOf(bucket);
    const result = await this.limits.hitAddress(address, bucket);
    const limited = applyRateLimit(
      res,
      limit,
      result,
      `Rate limit exceeded: ${limit} requests per minute from this address for ${SURFACES[bucket]}. Retry after 60 seconds.`,
    );
    if (limited) throw limited;
  }
}

/**
 * Runs before authentication on routes whose controller names an address bucket (RateLimitBucket): the
 * operator API, carrier callbacks and signed URLs are limited per client address before any work.
 */
@Injectable()
export class AddressRateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: AddressRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const bucket = this.reflector.getAllAndOverride<string>(RATE_LIMIT_BUCKET, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!isAddressBucket(bucket)) return true;
    const http = context.switchToHttp();
    await this.limiter.enforce(http.getRequest<Request>(), http.getResponse<Response>(), bucket);
    return true;
  }
}
