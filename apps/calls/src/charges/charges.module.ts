import { Module } from '@nestjs/common';
import { BillingHandlers } from './billing.handlers';
import { UnbilledChargesService } from './unbilled-charges.service';

/**
 * What calls cost: the charges of ended calls, handed to the gateway on request until it acknowledges them
 * (README: why money is split between this service and the gateway). The balance guard that admits and
 * ends calls by the partner's balance is its own stage (balance-guard/).
 */
@Module({
  controllers: [BillingHandlers],
  providers: [UnbilledChargesService],
})
export class ChargesModule {}
