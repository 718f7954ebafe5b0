import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OutboxService } from '@vap/messaging';
import { recordConnectionEvent } from './connection-events';
import { ConnectorSecrets } from './connector-secrets';
import { connectionStatus } from './connector-records';
import { Connector } from './entities/connector.entity';
import { CustomerConnection } from './entities/customer-connection.entity';
import { OAuthClient, TokenRequestError } from './oauth-client';

/** An access token this close to its expiry is refreshed before use rather than sent to be refused. */
const REFRESH_AHEAD_MS = 30_000;

/** What a function's request carries for the customer: headers, or a query parameter (an API key's). */
export interface ConnectionCredential {
  connectionId: string;
  headers: Record<string, string>;
  query: [string, string] | null;
  /** The access token sent: a 401 refreshes only if nobody has replaced it meanwhile. */
  accessToken: string;
  /** An OAuth 2.0 connection with a refresh token: a 401 is worth one refresh and one retry. */
  refreshable: boolean;
}

export type CredentialResult = { ok: true; credential: ConnectionCredential } | { ok: false; error: string };

/**
 * The call's customer's credential for a connector, for the custom function runner: read from the connection's
 * row, refreshed (RFC 6749 §6, the refresh token rotated when the server sends a new one) when the access token
 * has run out or the partner's API answered 401. A refresh the server refuses with invalid_grant marks the
 * connection revoked. Refreshes of one connection are serialized on its row, so concurrent calls refresh once.
 */
@Injectable()
export class ConnectionCredentials {
  private readonly log = new Logger(ConnectionCredentials.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: ConnectorSecrets,
    private readonly oauth: OAuthClient,
    private readonly outbox: OutboxService,
  ) {}

  async forCall(
    partnerId: string,
    customerId: string | null,
    connectorId: string,
  ): Promise<CredentialResult> {
    if (!customerId)
      return { ok: false, error: 'the call has no customer_id, so it has no connection to use' };
    const connector = await this.dataSource
      .getRepository(Connector)
      .findOneBy({ id: connectorId, partnerId });
    if (!connector) return { ok: false, error: 'the function’s connector no longer exists' };
    const connection = await this.dataSource
      .getRepository(CustomerConnection)
      .findOneBy({ partnerId, customerId, connectorId });
    const unusable = connection
      ? this.unusable(connection)
      : 'the customer has not connected ' + connector.name;
    if (unusable) return { ok: false, error: unusable };
    const expiring =
      connection!.tokenExpiresAt !== null &&
      connection!.tokenExpiresAt.getTime() - Date.now() <= REFRESH_AHEAD_MS;
    if (expiring && connector.oauth2 && connection!.refreshTokenSealed !== null) {
      const stale = this.secrets.open(connection!.id, 'access_token', connection!.accessTokenSealed) ?? '';
      return this.refresh(connection!.id, stale);
    }
    return { ok: true, credential: this.credentialOf(connector, connection!) };
  }

  /**
   * After a 401 with `stale`: a token another request refreshed meanwhile is used as it is; else the refresh
   * token is spent for a new one.
   */
  refresh(connectionId: string, stale: string): Promise<CredentialResult> {
    return this.dataSource.transaction(async (em) => {
      const connection = await em
        .getRepository(CustomerConnection)
        .createQueryBuilder('x')
        .where('x.id = :id', { id: connectionId })
        .setLock('pessimistic_write')
        .getOne();
      if (!connection) return { ok: false, error: 'the customer disconnected' } as const;
      const connector = await em.findOneByOrFail(Connector, { id: connection.connectorId });
      const unusable = this.unusable(connection, true);
      if (unusable) return { ok: false, error: unusable } as const;
      const current = this.secrets.open(connection.id, 'access_token', connection.accessTokenSealed);
      const fresh =
        connection.tokenExpiresAt === null ||
        connection.tokenExpiresAt.getTime() - Date.now() > REFRESH_AHEAD_MS;
      if (current !== stale && fresh)
        return { ok: true, credential: this.credentialOf(connector, connection) };
      const refreshToken = this.secrets.open(connection.id, 'refresh_token', connection.refreshTokenSealed);
      if (!connector.oauth2 || !refreshToken) {
        return {
          ok: false,
          error: 'the customer’s access token has run out and cannot be refreshed',
        } as const;
      }
      const client = {
        settings: connector.oauth2,
        clientSecret: this.secrets.openClientSecret(connector.id, connector.clientSecretSealed),
      };
      try {
        // The row stays locked during the request (bounded by the token request's timeout): one refresh at a time.
        const tokens = await this.oauth.refresh(client, refreshToken);
        const now = Date.now();
        connection.accessTokenSealed = this.secrets.seal(connection.id, 'access_token', tokens.accessToken);
        if (tokens.refreshToken)
          connection.refreshTokenSealed = this.secrets.seal(
            connection.id,
            'refresh_token',
            tokens.refreshToken,
          );
        connection.tokenExpiresAt =
          tokens.expiresIn === null ? null : new Date(now + tokens.expiresIn * 1000);
        if (tokens.scopes) connection.scopes = tokens.scopes;
        connection.lastRefreshedAt = new Date(now);
        connection.error = null;
        await em.save(connection);
        return { ok: true, credential: this.credentialOf(connector, connection) } as const;
      } catch (err) {
        const message = err instanceof TokenRequestError ? err.message : 'the token could not be refreshed';
        if (err instanceof TokenRequestError && err.error === 'invalid_grant') {
          // RFC 6749 §5.2: the refresh token is invalid, expired or revoked: only the customer can mend that.
          connection.status = 'revoked';
          connection.accessTokenSealed = null;
          connection.refreshTokenSealed = null;
          connection.tokenExpiresAt = null;
          connection.error = message;
          await em.save(connection);
          await recordConnectionEvent(this.outbox, em, connection, connector, 'revoked', 'refresh_refused');
          return { ok: false, error: `the customer’s connection to ${connector.name} was revoked` } as const;
        }
        this.log.warn(`connection ${connection.id}: refresh failed: ${message}`);
        return { ok: false, error: `the customer’s token could not be refreshed (${message})` } as const;
      }
    });
  }

  private unusable(connection: CustomerConnection, refreshing = false): string | null {
    const status =
      refreshing && connection.status === 'connected' ? 'connected' : connectionStatus(connection);
    switch (status) {
      case 'connected':
        return connection.accessTokenSealed === null ? 'the customer’s connection holds no credential' : null;
      case 'pending':
        return 'the customer has not completed the connection yet';
      case 'revoked':
        return 'the customer’s connection was revoked; they must connect again';
      case 'expired':
        return 'the customer’s connection has expired; they must connect again';
      case 'error':
        return 'the customer’s connection failed; they must connect again';
      case 'reconnect_required':
        return 'the connector’s settings changed; the customer must connect again';
    }
  }

  private credentialOf(connector: Connector, connection: CustomerConnection): ConnectionCredential {
    const secret = this.secrets.open(connection.id, 'access_token', connection.accessTokenSealed) ?? '';
    if (connector.apiKey) {
      const value = `${connector.apiKey.prefix}${secret}`;
      return {
        connectionId: connection.id,
        headers: connector.apiKey.in === 'header' ? { [connector.apiKey.name]: value } : {},
        query: connector.apiKey.in === 'query' ? [connector.apiKey.name, value] : null,
        accessToken: secret,
        refreshable: false,
      };
    }
    return {
      connectionId: connection.id,
      // RFC 6750 §2.1.
      headers: { authorization: `Bearer ${secret}` },
      query: null,
      accessToken: secret,
      refreshable: connection.refreshTokenSealed !== null,
    };
  }
}
