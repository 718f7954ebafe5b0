import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InboundRouteDecisionListDto, ListInboundRouteDecisionsQueryDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { keysetPage } from '@vap/persistence';
import { toDecisionDto } from '../../decision-dto';
import { InboundRouteDecision } from '../../entities/inbound-route-decision.entity';

/** calls.inbound_decision.list: the recorded routing decisions, oldest first, with cursor pagination and filters. */
@Injectable()
export class ListInboundDecisions {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(
    partnerId: string,
    query: ListInboundRouteDecisionsQueryDto,
  ): Promise<InboundRouteDecisionListDto> {
    const qb = this.dataSource
      .getRepository(InboundRouteDecision)
      .createQueryBuilder('d')
      .where('d.partner_id = :partnerId', { partnerId });
    if (query.phone_number_id) qb.andWhere('d.phone_number_id = :pn', { pn: query.phone_number_id });
    if (query.policy_id) qb.andWhere('d.policy_id = :policy', { policy: query.policy_id });
    if (query.action) qb.andWhere('d.action = :action', { action: query.action });
    if (query.source) qb.andWhere('d.source = :source', { source: query.source });
    if (query.from) qb.andWhere('d.created_at >= :from', { from: validDate(query.from, 'from') });
    if (query.to) qb.andWhere('d.created_at < :to', { to: validDate(query.to, 'to') });
    const page = await keysetPage(qb, query, { idKind: 'uuid' });
    return { decisions: page.rows.map(toDecisionDto), next_cursor: page.nextCursor };
  }
}

function validDate(value: string, field: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) {
    throw AppError.validation([{ field, message: `${field} must be an ISO 8601 date-time` }]);
  }
  return new Date(time).toISOString();
}
