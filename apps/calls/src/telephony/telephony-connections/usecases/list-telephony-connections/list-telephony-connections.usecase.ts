import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull } from 'typeorm';
import { TelephonyConnectionResourceListDto } from '@vap/api';
import { DefaultLineService } from '../../../connections/default-line.service';
import { Connection } from '../../../connections/entities/connection.entity';
import { CONNECTION_PROVIDERS, TelephonyConnectionViews } from '../../telephony-connection-views';

/** calls.telephony_connection.list: the account's carrier connections, oldest first, the sandbox included. */
@Injectable()
export class ListTelephonyConnections {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: DefaultLineService,
    private readonly views: TelephonyConnectionViews,
  ) {}

  async execute(partnerId: string): Promise<TelephonyConnectionResourceListDto> {
    // Every account has its sandbox line; listing shows it even before the first call creates it.
    await this.lines.ensureSandbox(partnerId);
    const connections = await this.dataSource.getRepository(Connection).find({
      where: { partnerId, provider: In([...CONNECTION_PROVIDERS]), deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    const views = [];
    for (const c of connections) views.push(await this.views.view(this.dataSource.manager, c));
    return { telephony_connections: views };
  }
}
