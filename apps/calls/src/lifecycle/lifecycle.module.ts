import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { PartnersModule } from '../partners/partners.module';
import { BalanceGuard } from './balance-guard.service';
import { OrphanedCallReaper } from './orphaned-call-reaper.service';
import { ReplicaLiveness } from './replica-liveness.service';

/** What ends live calls besides their carrier: the partner's balance and the loss of their replica. */
@Module({
  imports: [CarriersModule, PartnersModule],
  providers: [ReplicaLiveness, BalanceGuard, OrphanedCallReaper],
  exports: [ReplicaLiveness, BalanceGuard],
})
export class LifecycleModule {}
