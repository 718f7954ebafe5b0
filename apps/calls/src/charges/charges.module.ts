import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { PartnersModule } from '../partners/partners.module';
import { BalanceGuard } from './balance-guard.service';
import { BillingHandlers } from './billing.handlers';
import { UnbilledChargesService } from './unbilled-charges.service';

/**
 * What calls cost: the charges of ended calls, handed to the gateway on request until it acknowledges them,
 * and the balance guard that admits calls the partner's balance covers and ends those it no longer does
 * (README: why money is split between this service and the gateway).
 */
@Module({
  imports: [CarriersModule, PartnersModule],
  controllers: [BillingHandlers],
  providers: [UnbilledChargesService, BalanceGuard],
  exports: [BalanceGuard],
})
export class ChargesModule {}
