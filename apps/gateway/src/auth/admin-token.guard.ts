import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, ErrorCode } from '@vap/contracts';
import { GatewayConfig } from '../config/gateway.config';
import { secretsEqual } from './api-key-secrets';

/** Guards the operator API with ADMIN_API_TOKEN, compared in constant time. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !secretsEqual(match[1], this.config.ADMIN_API_TOKEN)) {
      throw new AppError(ErrorCode.UNAUTHORIZED, 'Missing or invalid operator token');
    }
    return true;
  }
}
