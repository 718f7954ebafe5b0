import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InboundRoutePolicyDeletedDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { InboundRoutePolicy } from '../../entities/inbound-route-policy.entity';

/** calls.inbound_policy.delete: the policy goes; its recorded decisions stay. */
@Injectable()
export class DeleteInboundPolicy {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, id: string): Promise<InboundRoutePolicyDeletedDto> {
    const result = await this.dataSource.getRepository(InboundRoutePolicy).delete({ id, partnerId });
    if (!result.affected) throw AppError.notFound('Inbound route policy');
    return { id, deleted: true };
  }
}
