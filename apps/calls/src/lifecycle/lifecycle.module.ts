import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { PartnersModule } from '../partners/partners.module';
import { BalanceGuard } from './balance-guard.service';
import { EndedCallFollowUp } from './ended-call-follow-up.consumer';

/**
 * What ends live calls besides their carrier (the partner's balance), and what follows any end (the voice
 * session stopped, a stale call hung up at the carrier).
 */
@Module({
  imports: [CarriersModule, PartnersModule],
  providers: [BalanceGuard, EndedCallFollowUp],
  exports: [BalanceGuard],
})
export class LifecycleModule {}
