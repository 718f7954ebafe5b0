import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TelephonyConnectionDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { toConnectionDto } from '../../../connections/connection-dto';
import { ConnectionCredentials } from '../../../connections/entities/connection-credentials.entity';
import { Connection } from '../../../connections/entities/connection.entity';
import { RESELLER_LINK } from '../../reseller-link-provider';

/** calls.reseller_link.connection_deactivate (the operator API): the connection is disabled, its row kept. */
@Injectable()
export class DeactivateResellerLinkConnection {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, connectionId: string): Promise<TelephonyConnectionDto> {
    const repo = this.dataSource.getRepository(Connection);
    const connection = await repo.findOne({
      where: { id: connectionId, partnerId, provider: RESELLER_LINK },
    });
    if (!connection) throw AppError.notFound('reseller-link connection');
    connection.status = 'disabled';
    await repo.save(connection);
    const creds = await this.dataSource
      .getRepository(ConnectionCredentials)
      .findOne({ where: { connectionId } });
    return toConnectionDto(connection, creds, null, '');
  }
}
