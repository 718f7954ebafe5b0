import { EntityManager } from 'typeorm';
import type { ConnectionDto, CustomerConnectionStatus, ConnectorDto } from '@vap/api';
import { AppError, ConnectorId } from '@vap/messages';
import { Connector } from './entities/connector.entity';
import { CustomerConnection } from './entities/customer-connection.entity';

/** The partner's connector, or 404 NOT_FOUND (also for a malformed id or another account's connector). */
export async function findConnector(
  em: EntityManager,
  partnerId: string,
  id: string,
  lock?: 'update' | 'share',
): Promise<Connector> {
  if (!ConnectorId.is(id)) throw AppError.notFound('Connector');
  const qb = em
    .getRepository(Connector)
    .createQueryBuilder('c')
    .where('c.id = :id AND c.partner_id = :partnerId', { id, partnerId });
  if (lock) qb.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
  const found = await qb.getOne();
  if (!found) throw AppError.notFound('Connector');
  return found;
}

export function toConnectorDto(c: Connector): ConnectorDto {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    oauth2: c.oauth2
      ? {
          authorize_url: c.oauth2.authorize_url,
          token_url: c.oauth2.token_url,
          revocation_url: c.oauth2.revocation_url,
          scopes: c.oauth2.scopes,
          client_id: c.oauth2.client_id,
          client_secret_set: c.clientSecretSealed !== null,
          token_auth_method: c.oauth2.token_auth_method,
          authorize_params: c.oauth2.authorize_params,
        }
      : null,
    api_key: c.apiKey ? { in: c.apiKey.in, name: c.apiKey.name, prefix: c.apiKey.prefix } : null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/**
 * The status a read shows: a pending link that ran out is expired, as is a connection whose access token ran out
 * with no refresh token to renew it.
 */
export function connectionStatus(c: CustomerConnection, now = Date.now()): CustomerConnectionStatus {
  if (c.status === 'pending' && (c.linkExpiresAt === null || c.linkExpiresAt.getTime() <= now))
    return 'expired';
  if (
    c.status === 'connected' &&
    c.refreshTokenSealed === null &&
    c.tokenExpiresAt !== null &&
    c.tokenExpiresAt.getTime() <= now
  )
    return 'expired';
  return c.status;
}

export function toConnectionDto(
  c: CustomerConnection,
  connector: Connector,
  now = Date.now(),
): ConnectionDto {
  const linkLive = c.linkExpiresAt !== null && c.linkExpiresAt.getTime() > now && c.linkTokenHash !== null;
  return {
    id: c.id,
    customer_id: c.customerId,
    connector_id: c.connectorId,
    connector_type: connector.type,
    status: connectionStatus(c, now),
    connected_at: c.connectedAt?.toISOString() ?? null,
    expires_at: c.tokenExpiresAt?.toISOString() ?? null,
    scopes: c.scopes,
    last_refreshed_at: c.lastRefreshedAt?.toISOString() ?? null,
    error: c.error,
    link_expires_at: linkLive ? c.linkExpiresAt!.toISOString() : null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
