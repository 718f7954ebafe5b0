import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode, scopeAllows } from '@vap/messages';
import { Partner } from '../accounts/entities/partner.entity';
import { toPartnerContext } from '../accounts/partner-context';
import { AuthContext, AuthenticatedRequest } from '../auth/auth-context';
import { ResellerAuditService } from './reseller-audit.service';

/** The header a reseller's key sends to act as one of its clients. */
export const ON_BEHALF_HEADER = 'x-on-behalf-of';

/** The scope that lets a key act on behalf of the account's clients (a key without scopes may too). */
export const ON_BEHALF_SCOPE = 'clients:write';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The same answer for a malformed id, a non-reseller, another reseller's client and no account at all. */
function noSuchClient(): AppError {
  return AppError.notFound('Client');
}

/**
 * X-On-Behalf-Of: a reseller's key, allowed clients:write, acts as one of the reseller's clients for the
 * request: every command is the client's (its tenancy, balance, limits; the request counts in the reseller's
 * account rate limits too), and the request is audited when its response is finished. Anything else naming a
 * client is 404 NOT_FOUND, so nobody learns whether an account exists that is not theirs.
 */
@Injectable()
export class OnBehalfService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: ResellerAuditService,
  ) {}

  async actAs(req: AuthenticatedRequest, res: Response, auth: AuthContext): Promise<AuthContext> {
    const header = req.headers[ON_BEHALF_HEADER];
    const clientId = typeof header === 'string' ? header.trim() : '';
    if (!scopeAllows(auth.scopes ?? null, ON_BEHALF_SCOPE)) {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        `Acting on behalf of a client needs an API key with the scope ${ON_BEHALF_SCOPE} (or full access)`,
      );
    }
    if (!UUID.test(clientId)) throw noSuchClient();
    const client = await this.dataSource
      .getRepository(Partner)
      .createQueryBuilder('c')
      .innerJoin(Partner, 'r', 'r.id = c.reseller_id')
      .where('c.id = :clientId AND c.reseller_id = :resellerId AND r.is_reseller', {
        clientId,
        resellerId: auth.partnerId,
      })
      .getOne();
    if (!client) throw noSuchClient();
    if (client.status === 'suspended') {
      throw new AppError(ErrorCode.FORBIDDEN, 'This client account is suspended');
    }
    if (client.status !== 'approved') {
      throw new AppError(ErrorCode.FORBIDDEN, 'This client account is not yet approved');
    }
    this.audit.recordWhenFinished(req, res, {
      resellerId: auth.partnerId,
      clientId: client.id,
      apiKeyId: auth.apiKeyId,
    });
    const partner = toPartnerContext(client);
    return {
      partnerId: client.id,
      apiKeyId: auth.apiKeyId,
      partner,
      scopes: auth.scopes,
      resellerId: auth.partnerId,
    };
  }
}
