import { Module } from '@nestjs/common';
import { CallProgressService } from './call-progress.service';
import { StaleCallSweeper } from './usecases/sweep-stale-calls/stale-call-sweeper.service';

/**
 * A call's progress: every status change, whoever reports it (carrier callbacks, reconciliation, the reapers),
 * goes through CallProgressService; the sweeper ends the calls whose carrier never said they ended.
 */
@Module({
  providers: [CallProgressService, StaleCallSweeper],
  exports: [CallProgressService],
})
export class ProgressModule {}
