import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CreateResellerLinkConnectionDto, TelephonyConnectionDto } from '@vap/api';
import { toConnectionDto } from '../../../connections/connection-dto';
import { CredentialsStore, ResellerLinkCredentials } from '../../../connections/credentials-store.service';
import { ConnectionCredentials } from '../../../connections/entities/connection-credentials.entity';
import { Connection } from '../../../connections/entities/connection.entity';
import { maskIdentifier } from '../../../connections/mask';
import { RESELLER_LINK } from '../../reseller-link-provider';

/**
 * calls.reseller_link.connection_create (the operator API): a reseller-link connection of the partner, its API
 * key sealed and its base URL kept without a trailing slash.
 */
@Injectable()
export class CreateResellerLinkConnection {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly credentials: CredentialsStore,
  ) {}

  execute(partnerId: string, input: CreateResellerLinkConnectionDto): Promise<TelephonyConnectionDto> {
    return this.dataSource.transaction(async (em) => {
      const connection = em.create(Connection, {
        id: randomUUID(),
        partnerId,
        provider: RESELLER_LINK,
        name: input.label ?? RESELLER_LINK,
        status: 'active',
      });
      await em.save(connection);
      const creds = em.create(ConnectionCredentials, {
        connectionId: connection.id,
        partnerId,
        accountIdMasked: maskIdentifier(input.api_key),
        sealed: this.credentials.seal(connection.id, {
          api_key: input.api_key,
        } satisfies ResellerLinkCredentials),
        fromNumber: null,
        apiBaseUrl: input.api_base_url.replace(/\/+$/, ''),
        label: input.label ?? null,
      });
      await em.save(creds);
      return toConnectionDto(connection, creds, null, '');
    });
  }
}
