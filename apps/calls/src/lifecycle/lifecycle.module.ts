import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { BalanceGuard } from './balance-guard.service';
import { OrphanedCallReaper } from './orphaned-call-reaper.service';
import { PartnerBalances } from './partner-balances';
import { ReplicaLiveness } from './replica-liveness.service';

/** What ends live calls besides their carrier: the partner's balance and the loss of their replica. */
@Module({
  imports: [CarriersModule],
  providers: [ReplicaLiveness, PartnerBalances, BalanceGuard, OrphanedCallReaper],
  exports: [ReplicaLiveness, BalanceGuard],
})
export class LifecycleModule {}
