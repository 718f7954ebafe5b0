import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BillingTransactionDto, BillingTransactionListDto, ListBillingTransactionsQueryDto } from '@vap/api';
import { keysetPage } from '@vap/persistence';
import { paiseToRupees } from '../accounts/partners.service';
import { LedgerEntry } from '../accounts/entities/ledger-entry.entity';
import { billingRange } from './billing-range';

/** What a transaction is, in words, from its type and what the ledger recorded with it. */
export function describeEntry(e: LedgerEntry): string {
  switch (e.type) {
    case 'charge': {
      const what = e.browserSessionId ? 'Browser session charge' : 'Call charge';
      const seconds = e.billedSeconds !== null ? `: ${e.billedSeconds} s` : '';
      const short = /short by (\d+) paise/.exec(e.reason);
      return `${what}${seconds}${short ? ` (balance ran out: INR ${paiseToRupees(Number(short[1]))} not collected)` : ''}`;
    }
    case 'top_up':
      return e.reason === 'opening_balance' ? 'Opening balance' : 'Top-up';
    case 'adjustment':
      return 'Balance adjustment';
    case 'refund':
      return 'Refund';
    case 'transfer':
      return e.amountPaise < 0 ? 'Funding of a client account' : 'Funding from your reseller';
    case 'resale': {
      const seconds = e.billedSeconds !== null ? `: ${e.billedSeconds} s` : '';
      return e.amountPaise >= 0
        ? `Resale margin on a client's call${seconds}`
        : `Platform cost of a client's call over what it paid${seconds}`;
    }
  }
}

export function toTransactionDto(e: LedgerEntry): BillingTransactionDto {
  return {
    id: e.id,
    type: e.type,
    amount_inr: paiseToRupees(e.amountPaise),
    balance_after_inr: paiseToRupees(e.balanceAfterPaise),
    currency: 'INR',
    description: describeEntry(e),
    call_id: e.callId,
    browser_session_id: e.browserSessionId,
    agent_id: e.agentId,
    campaign_id: e.campaignId,
    project_id: e.projectId,
    billed_seconds: e.billedSeconds,
    platform_speech_providers: e.platformSpeechProviders,
    model_usage: e.modelUsage,
    client_id: e.clientId ?? null,
    created_at: e.createdAt.toISOString(),
  };
}

/** The partner's ledger as GET /billing/transactions lists it. */
@Injectable()
export class BillingTransactionsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(partnerId: string, query: ListBillingTransactionsQueryDto): Promise<BillingTransactionListDto> {
    const range = billingRange(query);
    const qb = this.dataSource
      .getRepository(LedgerEntry)
      .createQueryBuilder('e')
      .where('e.partner_id = :partnerId', { partnerId });
    if (range.from) qb.andWhere('e.created_at >= :from', { from: range.from.toISOString() });
    if (range.to) qb.andWhere('e.created_at < :to', { to: range.to.toISOString() });
    if (query.type) qb.andWhere('e.type = :type', { type: query.type });
    // By seq, the order the balances followed each other in: each balance_after is the next one's start.
    const page = await keysetPage(qb, query, {
      idKind: 'integer',
      direction: 'DESC',
      id: 'seq',
      byIdOnly: true,
    });
    return { transactions: page.rows.map(toTransactionDto), next_cursor: page.nextCursor };
  }
}
