import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { PartnersModule } from '../partners/partners.module';
import { BalanceGuard } from './balance-guard.service';

/**
 * The balance guard: admits the calls the partner's balance covers and ends, through their transport, the
 * calls it no longer does (README: why money is split between this service and the gateway).
 */
@Module({
  imports: [CarriersModule, PartnersModule],
  providers: [BalanceGuard],
  exports: [BalanceGuard],
})
export class BalanceGuardModule {}
