import { Module } from '@nestjs/common';
import { ProgressModule } from '../progress/progress.module';
import { ConnectionsModule } from '../telephony/connections/connections.module';
import { CallbackIngestService } from './callback-ingest.service';
import { CallbackUrls } from './callback-urls';
import { CallbackHandlers } from './callback.handlers';
import { CarrierAAdapter } from './carrier-a/carrier-a.adapter';
import { CARRIER_ADAPTERS, CarrierAdapter } from './carrier-adapter';
import { CarrierBAdapter } from './carrier-b/carrier-b.adapter';
import { CarrierHttp } from './carrier-http';
import { CarrierRegistry } from './carrier-registry';
import { LateAnswerRelay } from './late-answer-relay.service';
import { MediaStreamLinks } from './media-stream-links';
import { SandboxLineCarrier } from './sandbox-line.carrier';
import { CarrierReconciler } from './reconciliation/carrier-reconciler.service';
import { CarrierReconciliationWorker } from './reconciliation/carrier-reconciliation-worker.service';
import { CarrierSilenceCheck } from './reconciliation/carrier-silence-check.service';

/**
 * The carriers: their adapters (behind CarrierRegistry), their status callbacks, and the reconciliation that
 * asks them about calls whose callbacks went missing; both feed the call's progress. A new carrier: provide
 * its adapter here and add it to the CARRIER_ADAPTERS factory's inject list.
 */
@Module({
  imports: [ConnectionsModule, ProgressModule],
  controllers: [CallbackHandlers],
  providers: [
    CarrierRegistry,
    CallbackUrls,
    CallbackIngestService,
    LateAnswerRelay,
    CarrierReconciler,
    CarrierReconciliationWorker,
    CarrierSilenceCheck,
    CarrierHttp,
    MediaStreamLinks,
    CarrierAAdapter,
    CarrierBAdapter,
    SandboxLineCarrier,
    {
      provide: CARRIER_ADAPTERS,
      inject: [SandboxLineCarrier, CarrierAAdapter, CarrierBAdapter],
      useFactory: (...adapters: CarrierAdapter[]) => adapters,
    },
  ],
  exports: [CarrierRegistry, CallbackUrls, CarrierReconciler, SandboxLineCarrier],
})
export class CarriersModule {}
