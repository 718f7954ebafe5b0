import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { ContactPolicyModule } from '../telephony/contact-policy/contact-policy.module';
import { PartnersModule } from '../partners/partners.module';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { DefaultLineService } from '../telephony/connections/default-line.service';
import { CarrierRecordingCopier } from '../post-call/carrier-recording-copier.service';
import { ExtractionRunner } from '../post-call/extraction-runner.service';
import { PostCallProcessor } from '../post-call/post-call-processor.service';
import { PostCallWorker } from '../post-call/post-call-worker.service';
import { StaleCallSweeper } from '../progress/stale-call-sweeper.service';
import { CallDialer } from '../admission/call-dialer';
import { CallsHandlers } from './calls.handlers';
import { CallsQueryService } from './calls-query.service';
import { FromNumberResolver } from '../admission/from-number.resolver';
import { StartCallService } from '../admission/start-call.service';
import { StartCallKeysPruner } from '../admission/start-call-keys-pruner.service';

/** Starting and reading calls, and their post-call processing. */
@Module({
  imports: [CarriersModule, PartnersModule, LifecycleModule, ContactPolicyModule],
  controllers: [CallsHandlers],
  providers: [
    StartCallService,
    CallDialer,
    CallsQueryService,
    FromNumberResolver,
    DefaultLineService,
    ExtractionRunner,
    CarrierRecordingCopier,
    PostCallProcessor,
    PostCallWorker,
    StaleCallSweeper,
    StartCallKeysPruner,
  ],
  exports: [DefaultLineService],
})
export class CallsModule {}
