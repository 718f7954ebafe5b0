import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BalanceDto,
  BillingTransactionListDto,
  BillingUsageDto,
  BillingUsageQueryDto,
  ListBillingTransactionsQueryDto,
  USAGE_MAX_RANGE_DAYS,
} from '@vap/api';
import { ErrorCode } from '@vap/messages';
import { PartnersService, paiseToRupees } from '../accounts/partners.service';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { BillingTransactionsService } from './billing-transactions.service';
import { BillingUsageService } from './billing-usage.service';

@ApiTags('Billing')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/billing`)
export class BillingController {
  constructor(
    private readonly partners: PartnersService,
    private readonly transactions: BillingTransactionsService,
    private readonly usageReports: BillingUsageService,
  ) {}

  @Get('balance')
  @ApiOperation({ summary: 'Current balance in rupees' })
  @ApiEnvelope(BalanceDto)
  async balance(@CurrentPartner() auth: AuthContext): Promise<BalanceDto> {
    const partner = await this.partners.get(auth.partnerId);
    return {
      balance_inr: paiseToRupees(partner.balancePaise),
      currency: 'INR',
      updated_at: partner.updatedAt.toISOString(),
    };
  }

  @Get('transactions')
  @ApiOperation({
    summary: 'List the balance transactions of the account',
    description:
      'Every change of the balance, newest first, cursor pagination: the charge of each call and browser ' +
      'session, top-ups and adjustments by the platform operator. Each gives the signed amount and the balance ' +
      'right after it (so the first page’s first balance_after_inr is the current balance while nothing else ' +
      'happens), and for a charge what it was for: call or browser session, agent, campaign, project, billed ' +
      'seconds. Filters: from/to (created_at, from inclusive, to exclusive) and type.',
  })
  @ApiEnvelope(BillingTransactionListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListBillingTransactionsQueryDto,
  ): Promise<BillingTransactionListDto> {
    return this.transactions.list(auth.partnerId, query);
  }

  @Get('usage')
  @ApiOperation({
    summary: 'Usage over a time range: calls, minutes and credits, grouped',
    description:
      'The charge transactions created in [from, to) summed per UTC day, agent, campaign or project ' +
      '(group_by), and over the range: calls and browser sessions charged, billed seconds and minutes, and ' +
      `rupees charged. The figures are the transactions' sums exactly. The range is at most ` +
      `${USAGE_MAX_RANGE_DAYS} days.`,
  })
  @ApiEnvelope(BillingUsageDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  usage(@CurrentPartner() auth: AuthContext, @Query() query: BillingUsageQueryDto): Promise<BillingUsageDto> {
    return this.usageReports.usage(auth.partnerId, query);
  }
}
