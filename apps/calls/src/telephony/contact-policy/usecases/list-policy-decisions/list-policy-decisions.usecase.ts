import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ListPolicyDecisionsQueryDto, PolicyDecisionDto, PolicyDecisionListDto } from '@vap/api';
import { keysetPage } from '@vap/persistence';
import { PolicyDecision } from '../../entities/policy-decision.entity';

function toPolicyDecisionDto(d: PolicyDecision): PolicyDecisionDto {
  return {
    id: d.id,
    number: d.number,
    rule: d.rule,
    outcome: d.outcome,
    source: d.source,
    campaign_id: d.campaignId,
    contact_id: d.contactId,
    do_not_call_id: d.doNotCallId,
    retry_at: d.retryAt?.toISOString() ?? null,
    detail: d.detail,
    created_at: d.createdAt.toISOString(),
  };
}

/** calls.policy_decision.list (GET /contact-policy/decisions): the dials a rule stopped, newest first. */
@Injectable()
export class ListPolicyDecisions {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, query: ListPolicyDecisionsQueryDto): Promise<PolicyDecisionListDto> {
    const qb = this.dataSource
      .getRepository(PolicyDecision)
      .createQueryBuilder('p')
      .where('p.partner_id = :partnerId', { partnerId });
    if (query.number) qb.andWhere('p.number = :number', { number: query.number });
    if (query.rule) qb.andWhere('p.rule = :rule', { rule: query.rule });
    if (query.outcome) qb.andWhere('p.outcome = :outcome', { outcome: query.outcome });
    if (query.source) qb.andWhere('p.source = :source', { source: query.source });
    if (query.campaign_id) qb.andWhere('p.campaign_id = :campaignId', { campaignId: query.campaign_id });
    if (query.created_after) qb.andWhere('p.created_at >= :after', { after: query.created_after });
    if (query.created_before) qb.andWhere('p.created_at < :before', { before: query.created_before });
    const page = await keysetPage(qb, query, { idKind: 'uuid', direction: 'DESC' });
    return { decisions: page.rows.map(toPolicyDecisionDto), next_cursor: page.nextCursor };
  }
}
