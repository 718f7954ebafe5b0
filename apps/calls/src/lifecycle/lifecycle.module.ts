import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { PartnersModule } from '../partners/partners.module';
import { BalanceGuard } from '../charges/balance-guard.service';
import { EndedCallFollowUp } from '../media-sessions/ended-call-follow-up.consumer';
import { OrphanedCallReaper } from './orphaned-call-reaper.service';
import { ReplicaLiveness } from './replica-liveness.service';

/**
 * What ends live calls besides their carrier (the partner's balance, the loss of their replica), and what
 * follows any end (the voice session stopped, a stale call hung up at the carrier).
 */
@Module({
  imports: [CarriersModule, PartnersModule],
  providers: [ReplicaLiveness, BalanceGuard, OrphanedCallReaper, EndedCallFollowUp],
  exports: [ReplicaLiveness, BalanceGuard],
})
export class LifecycleModule {}
