import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError, ErrorCode } from '@vap/messages';
import { GatewayConfig } from '../config/gateway.config';
import { clientAddress } from '../http/client-address';
import { secretsEqual } from './api-key-secrets';
import { OperatorLockout } from './operator-lockout.service';

/**
 * Guards the operator API with ADMIN_API_TOKEN, compared in constant time. Wrong tokens lock the client
 * address out for a growing time (OperatorLockout); the route's per-address limit has already run.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(
    private readonly config: GatewayConfig,
    private readonly lockout: OperatorLockout,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const address = clientAddress(req, this.config.TRUST_PROXY_HOPS);
    const wait = await this.lockout.lockedFor(address);
    if (wait > 0) {
      context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(wait));
      throw new AppError(
        ErrorCode.RATE_LIMITED,
        `Too many wrong operator tokens from this address. Retry after ${wait} seconds.`,
      );
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match || !secretsEqual(match[1], this.config.ADMIN_API_TOKEN)) {
      await this.lockout.failed(address);
      throw new AppError(ErrorCode.UNAUTHORIZED, 'Missing or invalid operator token');
    }
    await this.lockout.succeeded(address);
    return true;
  }
}
