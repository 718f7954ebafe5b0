import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { TelephonyConnectionListDto } from '@vap/api';
import { CallsConfig } from '../../../../config/calls.config';
import { PhoneNumber } from '../../../phone-numbers/entities/phone-number.entity';
import { toConnectionDto } from '../../connection-dto';
import { DefaultLineService } from '../../default-line.service';
import { ConnectionCredentials } from '../../entities/connection-credentials.entity';
import { Connection } from '../../entities/connection.entity';

/** calls.telephony.list (GET /config/telephony): the account's connections, oldest first, the sandbox included. */
@Injectable()
export class ListTelephonyConfig {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: DefaultLineService,
    private readonly config: CallsConfig,
  ) {}

  async execute(partnerId: string): Promise<TelephonyConnectionListDto> {
    // Every account has its sandbox line; listing shows it even before the first call creates it.
    await this.lines.ensureSandbox(partnerId);
    const connections = await this.dataSource
      .getRepository(Connection)
      .find({ where: { partnerId, deletedAt: IsNull() }, order: { createdAt: 'ASC', id: 'ASC' } });
    const creds = await this.dataSource.getRepository(ConnectionCredentials).find({ where: { partnerId } });
    const defaults = await this.dataSource
      .getRepository(PhoneNumber)
      .find({ where: { partnerId, isDefault: true } });
    return {
      connections: connections.map((c) =>
        toConnectionDto(
          c,
          creds.find((x) => x.connectionId === c.id) ?? null,
          defaults.find((n) => n.connectionId === c.id)?.number ?? null,
          this.config.callbackBaseUrl,
        ),
      ),
    };
  }
}
