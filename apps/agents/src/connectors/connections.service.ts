import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ConnectionCreateRequest,
  ConnectionDeletedDto,
  ConnectionDeleteRequest,
  ConnectionLinkDto,
  ConnectionListDto,
  ConnectionListRequest,
} from '@vap/api';
import { AppError, CONNECT_LINK_TTL_MS, ConnectionId } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { inTransaction, tableOf } from '@vap/persistence';
import { LOCK_CONFLICT } from '../common/write-conflicts';
import { recordConnectionEvent } from './connection-events';
import { ConnectorSecrets } from './connector-secrets';
import { findConnector, toConnectionDto } from './connector-records';
import { Connector } from './entities/connector.entity';
import { CustomerConnection } from './entities/customer-connection.entity';
import { OAuthClient } from './oauth-client';
import { randomToken, tokenHash } from './pkce';

/** The connect page's path on the gateway's public base URL. */
export const CONNECT_PAGE_PATH = '/connect';

/**
 * A customer's connections (/customers/{id}/connections). The gateway owns customers and has checked the customer
 * is the account's before asking; here a connection is one row per (customer, connector).
 */
@Injectable()
export class ConnectionsService {
  private readonly log = new Logger(ConnectionsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: ConnectorSecrets,
    private readonly oauth: OAuthClient,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * A new connect link (the previous one, if any, stops working). A connected connection stays usable until the
   * customer completes the new link, which replaces its credential; a reconnect_required one stays so until then.
   */
  createLink(partnerId: string, req: ConnectionCreateRequest): Promise<ConnectionLinkDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const connector = await findConnector(em, partnerId, req.connectorId, 'share');
        const token = randomToken();
        const expiresAt = new Date(Date.now() + CONNECT_LINK_TTL_MS);
        const table = tableOf(em, CustomerConnection);
        // One row per (customer, connector): a second link reuses it, atomically against a concurrent one.
        const [row] = (await em.query(
          `INSERT INTO ${table} (id, partner_id, customer_id, connector_id, status, link_token_hash, link_expires_at)
           VALUES ($1, $2, $3, $4, 'pending', $5, $6)
           ON CONFLICT (partner_id, customer_id, connector_id) DO UPDATE
             SET link_token_hash = EXCLUDED.link_token_hash,
                 link_expires_at = EXCLUDED.link_expires_at,
                 status = CASE WHEN ${table}.status IN ('connected', 'reconnect_required') THEN ${table}.status
                               ELSE 'pending' END,
                 state_hash = NULL, state_binding_hash = NULL, state_expires_at = NULL, verifier_sealed = NULL,
                 updated_at = now()
           RETURNING id`,
          [
            ConnectionId.format(randomUUID()),
            partnerId,
            req.customerId,
            connector.id,
            tokenHash(token),
            expiresAt,
          ],
        )) as { id: string }[];
        const connection = await em.findOneByOrFail(CustomerConnection, { id: row.id });
        return {
          connection: toConnectionDto(connection, connector),
          connect_url: `${req.publicBaseUrl.replace(/\/+$/, '')}${CONNECT_PAGE_PATH}/${token}`,
          expires_at: expiresAt.toISOString(),
        };
      },
      LOCK_CONFLICT,
    );
  }

  /** At most one row per connector of the account: bounded by the connector limit, so not paged. */
  async list(partnerId: string, req: ConnectionListRequest): Promise<ConnectionListDto> {
    const rows = await this.dataSource
      .getRepository(CustomerConnection)
      .createQueryBuilder('x')
      .innerJoinAndMapOne('x.connector', Connector, 'c', 'c.id = x.connector_id')
      .where('x.partner_id = :partnerId AND x.customer_id = :customerId', {
        partnerId,
        customerId: req.customerId,
      })
      .orderBy('x.createdAt')
      .addOrderBy('x.id')
      .getMany();
    const now = Date.now();
    return {
      connections: rows.map((r) =>
        toConnectionDto(r, (r as CustomerConnection & { connector: Connector }).connector, now),
      ),
    };
  }

  /**
   * Disconnects: the row and its credential are gone at once; then, where the connector has a revocation endpoint
   * (RFC 7009), the refresh token (else the access token) is revoked there, best effort.
   */
  async remove(partnerId: string, req: ConnectionDeleteRequest): Promise<ConnectionDeletedDto> {
    if (!ConnectionId.is(req.id)) throw AppError.notFound('Connection');
    const removed = await inTransaction(
      this.dataSource,
      async (em) => {
        const connection = await em
          .getRepository(CustomerConnection)
          .createQueryBuilder('x')
          .where('x.id = :id AND x.partner_id = :partnerId AND x.customer_id = :customerId', {
            id: req.id,
            partnerId,
            customerId: req.customerId,
          })
          .setLock('pessimistic_write')
          .getOne();
        if (!connection) throw AppError.notFound('Connection');
        const connector = await em.findOneByOrFail(Connector, { id: connection.connectorId });
        await em.delete(CustomerConnection, { id: connection.id });
        await recordConnectionEvent(this.outbox, em, connection, connector, 'disconnected', 'deleted');
        return { connection, connector };
      },
      LOCK_CONFLICT,
    );
    const { connection, connector } = removed;
    let revoked = false;
    if (connector.oauth2?.revocation_url) {
      const refresh = this.secrets.open(connection.id, 'refresh_token', connection.refreshTokenSealed);
      const access = this.secrets.open(connection.id, 'access_token', connection.accessTokenSealed);
      const client = {
        settings: connector.oauth2,
        clientSecret: this.secrets.openClientSecret(connector.id, connector.clientSecretSealed),
      };
      // RFC 7009 §2.1: revoking the refresh token also invalidates the access tokens issued with it.
      if (refresh) revoked = await this.oauth.revoke(client, refresh, 'refresh_token');
      else if (access) revoked = await this.oauth.revoke(client, access, 'access_token');
      if (!revoked && (refresh || access))
        this.log.warn(`connection ${connection.id}: the revocation endpoint did not confirm the revocation`);
    }
    return { id: connection.id, message: 'Connection deleted', revoked };
  }
}
