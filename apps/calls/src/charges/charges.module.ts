import { Module } from '@nestjs/common';
import { BillingHandlers } from './billing.handlers';
import { AcknowledgeCharges } from './usecases/acknowledge-charges/acknowledge-charges.usecase';
import { ListUnbilledCharges } from './usecases/list-unbilled-charges/list-unbilled-charges.usecase';

/**
 * What calls cost: the charges of ended calls, handed to the gateway on request until it acknowledges them
 * (README: why money is split between this service and the gateway). The balance guard that admits and
 * ends calls by the partner's balance is its own stage (balance-guard/).
 */
@Module({
  controllers: [BillingHandlers],
  providers: [ListUnbilledCharges, AcknowledgeCharges],
})
export class ChargesModule {}
