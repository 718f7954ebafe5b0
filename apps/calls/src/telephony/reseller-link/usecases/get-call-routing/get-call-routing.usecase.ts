import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ResellerCallRoutingDto, ResellerCallRoutingQueryDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { PrivateNetworkGuard, privateNetworksAllowed, PublicHttpClient } from '@vap/egress';
import { TelephonyConfig } from '../../../../config/telephony.config';
import { CredentialsStore, ResellerLinkCredentials } from '../../../connections/credentials-store.service';
import { ConnectionCredentials } from '../../../connections/entities/connection-credentials.entity';
import { Connection } from '../../../connections/entities/connection.entity';
import { RESELLER_LINK } from '../../reseller-link-provider';
import { readCallRoutingRecords } from '../../reseller-routing-records';

const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * calls.reseller_link.call_routing: the call-routing table read from the reseller's REST API, `GET
 * {api_base_url}/call-routing` with `Authorization: Bearer <api_key>`. The base URL is configured per
 * connection, so requests go through the private-network guard.
 */
@Injectable()
export class GetCallRouting implements OnModuleDestroy {
  private readonly logger = new Logger(GetCallRouting.name);
  private readonly http = new PublicHttpClient(
    new PrivateNetworkGuard({ allowPrivateNetworks: privateNetworksAllowed() }),
  );

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly credentials: CredentialsStore,
    private readonly config: TelephonyConfig,
  ) {}

  async execute(partnerId: string, query: ResellerCallRoutingQueryDto): Promise<ResellerCallRoutingDto> {
    const connection = await this.pick(partnerId, query.connection_id);
    const creds = await this.dataSource
      .getRepository(ConnectionCredentials)
      .findOne({ where: { connectionId: connection.id } });
    if (!creds?.apiBaseUrl) throw AppError.notFound('reseller-link connection');
    const { api_key } = await this.credentials.open<ResellerLinkCredentials>(connection.id);
    let records;
    try {
      const res = await this.http.get(`${creds.apiBaseUrl}/call-routing`, {
        timeoutMs: this.config.RESELLER_LINK_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
        maxRedirects: 0,
        headers: { authorization: `Bearer ${api_key}`, accept: 'application/json' },
      });
      if (res.status !== 200) throw new Error(`answered HTTP ${res.status}`);
      records = readCallRoutingRecords(JSON.parse(res.body.toString('utf8')));
    } catch (err) {
      this.logger.warn(`reseller-link ${connection.id} call-routing failed: ${(err as Error).message}`);
      throw AppError.downstream('The reseller-link API failed or did not answer in time; retry');
    }
    return { data: records };
  }

  /** The connection to read: the one named, else the only active one (400 when several could be meant). */
  private async pick(partnerId: string, connectionId: string | undefined): Promise<Connection> {
    const repo = this.dataSource.getRepository(Connection);
    if (connectionId) {
      const named = await repo.findOne({
        where: { id: connectionId, partnerId, provider: RESELLER_LINK, status: 'active' },
      });
      if (!named) throw AppError.notFound('reseller-link connection');
      return named;
    }
    const active = await repo.find({ where: { partnerId, provider: RESELLER_LINK, status: 'active' } });
    if (active.length === 0) throw AppError.notFound('Active reseller-link connection');
    if (active.length > 1) {
      throw AppError.validation([
        {
          field: 'connection_id',
          message: `connection_id is required: the account has ${active.length} active reseller-link connections`,
        },
      ]);
    }
    return active[0];
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}
