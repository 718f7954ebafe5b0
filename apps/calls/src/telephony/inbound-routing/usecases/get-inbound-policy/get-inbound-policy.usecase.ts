import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InboundRoutePolicyDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { InboundRoutePolicy } from '../../entities/inbound-route-policy.entity';
import { toPolicyDto } from '../../policy-dto';
import { policyNumberOf } from '../../policy-number';

/** calls.inbound_policy.get: one of the partner's routing policies (another account's is 404). */
@Injectable()
export class GetInboundPolicy {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, id: string): Promise<InboundRoutePolicyDto> {
    const policy = await this.dataSource
      .getRepository(InboundRoutePolicy)
      .findOne({ where: { id, partnerId } });
    if (!policy) throw AppError.notFound('Inbound route policy');
    return toPolicyDto(policy, await policyNumberOf(this.dataSource, policy));
  }
}
