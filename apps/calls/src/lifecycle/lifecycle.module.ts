import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { ProgressModule } from '../progress/progress.module';
import { OrphanedCallReaper } from './orphaned-call-reaper.service';
import { ReplicaLiveness } from './replica-liveness.service';

/** The calls replicas that run sandbox calls in-process, and the end of the calls of one that is gone. */
@Module({
  imports: [CarriersModule, ProgressModule],
  providers: [ReplicaLiveness, OrphanedCallReaper],
  exports: [ReplicaLiveness],
})
export class LifecycleModule {}
