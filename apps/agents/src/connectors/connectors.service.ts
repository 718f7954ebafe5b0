import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ConnectorDeletedDto,
  ConnectorDto,
  ConnectorLimits,
  ConnectorListDto,
  CreateConnectorDto,
  ListConnectorsQueryDto,
  UpdateConnectorDto,
} from '@vap/api';
import { isPublicHostName } from '@vap/egress';
import { AppError, ConnectorId, ErrorCode } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { inTransaction, keysetPage } from '@vap/persistence';
import { LOCK_CONFLICT, withUniqueConflicts } from '../common/write-conflicts';
import { KnowledgeConfig } from '../config/knowledge.config';
import { CustomFunction } from '../custom-functions/entities/custom-function.entity';
import { credentialEndpointsMoved, requireReconnect } from './connector-reconsent';
import { ConnectorSecrets } from './connector-secrets';
import { findConnector, toConnectorDto } from './connector-records';
import { Connector, OAuth2Settings } from './entities/connector.entity';

const NAME_TAKEN = withUniqueConflicts({
  connectors_partner_name_key: () =>
    AppError.conflict('A connector with this name already exists on this account (names ignore case)'),
});

function invalid(field: string, message: string): AppError {
  return AppError.validation([{ field, message }], `Invalid request: ${message}`);
}

/** Connectors (/connectors): what an account's customers may connect, and how. */
@Injectable()
export class ConnectorsService {
  private readonly allowPrivateHosts: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: ConnectorSecrets,
    private readonly outbox: OutboxService,
    config: KnowledgeConfig,
  ) {
    // The same rule as the requests to the token endpoint: the connect page redirects only to a public host.
    this.allowPrivateHosts = config.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  }

  async create(partnerId: string, input: CreateConnectorDto): Promise<ConnectorDto> {
    if (input.type === 'oauth2' && input.api_key !== undefined)
      throw invalid('api_key', 'api_key is for type api_key only');
    if (input.type === 'api_key' && input.oauth2 !== undefined)
      throw invalid('oauth2', 'oauth2 is for type oauth2 only');
    if (input.oauth2) this.assertPublicHost('oauth2.authorize_url', input.oauth2.authorize_url);
    return inTransaction(
      this.dataSource,
      async (em) => {
        // Serializes the account's creations, so the count below cannot be passed by concurrent ones.
        await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`agents:connectors:${partnerId}`]);
        if ((await em.countBy(Connector, { partnerId })) >= ConnectorLimits.perAccount) {
          throw new AppError(
            ErrorCode.LIMIT_REACHED,
            `An account can have at most ${ConnectorLimits.perAccount} connectors`,
          );
        }
        const id = ConnectorId.format(randomUUID());
        const o = input.oauth2;
        await em.insert(Connector, {
          id,
          partnerId,
          name: input.name,
          type: input.type,
          oauth2: o
            ? ({
                authorize_url: o.authorize_url,
                token_url: o.token_url,
                revocation_url: o.revocation_url ?? null,
                scopes: o.scopes ?? [],
                client_id: o.client_id,
                token_auth_method: o.token_auth_method ?? 'client_secret_basic',
                authorize_params: o.authorize_params ?? {},
              } satisfies OAuth2Settings as never)
            : null,
          clientSecretSealed: this.secrets.sealClientSecret(id, o?.client_secret),
          apiKey: input.api_key
            ? ({
                in: input.api_key.in,
                name: input.api_key.name,
                prefix: input.api_key.prefix ?? '',
              } as never)
            : null,
        });
        return toConnectorDto(await em.findOneByOrFail(Connector, { id }));
      },
      NAME_TAKEN,
    );
  }

  async get(partnerId: string, id: string): Promise<ConnectorDto> {
    return toConnectorDto(await findConnector(this.dataSource.manager, partnerId, id));
  }

  async list(partnerId: string, query: ListConnectorsQueryDto): Promise<ConnectorListDto> {
    const qb = this.dataSource
      .getRepository(Connector)
      .createQueryBuilder('c')
      .where('c.partner_id = :partnerId', { partnerId });
    const page = await keysetPage(qb, query, { idKind: 'prefixed' });
    return { connectors: page.rows.map(toConnectorDto), next_cursor: page.nextCursor };
  }

  /**
   * Connections keep working with new settings that send nothing anywhere new (name, scopes, client id, ...).
   * Moving a credential endpoint (see credentialEndpointsMoved) needs the client secret again in the same request,
   * and every customer's connection to the connector loses its tokens and outstanding link in the same transaction:
   * status reconnect_required, one customer_connection.updated each. Nothing issued for the old server is ever
   * sent to the new one.
   */
  update(partnerId: string, id: string, input: UpdateConnectorDto): Promise<ConnectorDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const c = await findConnector(em, partnerId, id, 'update');
        if (input.name !== undefined) c.name = input.name;
        let moved = false;
        if (input.oauth2 !== undefined) {
          if (!c.oauth2) throw invalid('oauth2', 'oauth2 is for type oauth2 only');
          const o = input.oauth2;
          if (o.authorize_url !== undefined) this.assertPublicHost('oauth2.authorize_url', o.authorize_url);
          const next: OAuth2Settings = {
            authorize_url: o.authorize_url ?? c.oauth2.authorize_url,
            token_url: o.token_url ?? c.oauth2.token_url,
            revocation_url: o.revocation_url !== undefined ? o.revocation_url : c.oauth2.revocation_url,
            scopes: o.scopes ?? c.oauth2.scopes,
            client_id: o.client_id ?? c.oauth2.client_id,
            token_auth_method: o.token_auth_method ?? c.oauth2.token_auth_method,
            authorize_params:
              o.authorize_params !== undefined ? (o.authorize_params ?? {}) : c.oauth2.authorize_params,
          };
          moved = credentialEndpointsMoved(c.oauth2, next);
          if (moved && c.clientSecretSealed !== null && o.client_secret === undefined) {
            throw invalid(
              'oauth2.client_secret',
              'changing token_url, revocation_url or the authorize_url’s origin requires client_secret again in ' +
                'the same request (or null for a public client): the stored secret is never sent to a new URL',
            );
          }
          c.oauth2 = next;
          if (o.client_secret !== undefined)
            c.clientSecretSealed = this.secrets.sealClientSecret(c.id, o.client_secret);
        }
        if (input.api_key !== undefined) {
          if (!c.apiKey) throw invalid('api_key', 'api_key is for type api_key only');
          c.apiKey = { in: input.api_key.in, name: input.api_key.name, prefix: input.api_key.prefix ?? '' };
        }
        await em.save(c);
        if (moved) await requireReconnect(em, this.outbox, c);
        return toConnectorDto(c);
      },
      NAME_TAKEN,
    );
  }

  /**
   * The authorization server's host passes the egress guard's address rule (the connect page sends customers'
   * browsers there): no private, loopback or otherwise non-public address literal, no localhost name.
   */
  private assertPublicHost(field: string, url: string): void {
    if (!this.allowPrivateHosts && !isPublicHostName(new URL(url).hostname))
      throw invalid(field, `${field} must name a public host`);
  }

  /** Deletes the connector and every customer's connection to it; refused while a custom function uses it. */
  remove(partnerId: string, id: string): Promise<ConnectorDeletedDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const c = await findConnector(em, partnerId, id, 'update');
        const users = await em
          .getRepository(CustomFunction)
          .createQueryBuilder('f')
          .select(['f.name'])
          .where(`f.partner_id = :partnerId AND f.auth ->> 'connector_id' = :id`, { partnerId, id: c.id })
          .orderBy('f.name')
          .limit(5)
          .getMany();
        if (users.length) {
          throw AppError.conflict(
            `The connector is used by custom functions (${users.map((f) => f.name).join(', ')}): change their auth first`,
          );
        }
        await em.delete(Connector, { id: c.id });
        return { id: c.id, message: 'Connector deleted' };
      },
      LOCK_CONFLICT,
    );
  }
}
