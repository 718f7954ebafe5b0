import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BalanceDto } from '@vap/api';
import { PartnersService, paiseToRupees } from '../accounts/partners.service';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiPartnerRoute } from '../http/openapi.decorators';

@ApiTags('Billing')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/billing`)
export class BillingController {
  constructor(private readonly partners: PartnersService) {}

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
}
