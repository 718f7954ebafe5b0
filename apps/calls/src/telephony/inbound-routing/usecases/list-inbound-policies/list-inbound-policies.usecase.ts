import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { InboundRoutePolicyListDto } from '@vap/api';
import { PhoneNumber } from '../../../phone-numbers/entities/phone-number.entity';
import { InboundRoutePolicy } from '../../entities/inbound-route-policy.entity';
import { toPolicyDto } from '../../policy-dto';

/** calls.inbound_policy.list: the partner's routing policies, oldest first, with the numbers they route. */
@Injectable()
export class ListInboundPolicies {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string): Promise<InboundRoutePolicyListDto> {
    const policies = await this.dataSource
      .getRepository(InboundRoutePolicy)
      .find({ where: { partnerId }, order: { createdAt: 'ASC', id: 'ASC' } });
    const numberIds = policies.map((p) => p.phoneNumberId).filter((x): x is string => !!x);
    const numbers = numberIds.length
      ? await this.dataSource.getRepository(PhoneNumber).find({ where: { partnerId, id: In(numberIds) } })
      : [];
    return {
      policies: policies.map((p) => toPolicyDto(p, numbers.find((n) => n.id === p.phoneNumberId) ?? null)),
    };
  }
}
