import { Module } from '@nestjs/common';
import { CallTransferService } from '../calls/call-transfer.service';
import { TelephonyModule } from '../telephony/telephony.module';
import { CallProgressService } from '../progress/call-progress.service';
import { CarrierReconciler } from '../reconciliation/carrier-reconciler.service';
import { CarrierReconciliationWorker } from '../reconciliation/carrier-reconciliation-worker.service';
import { CarrierSilenceCheck } from '../reconciliation/carrier-silence-check.service';
import { MediaStreamLinks } from '../media-stream/media-stream-links';
import { RecordingStore } from '../recording/recording-store';
import { AgentBrain } from '../voice/agent-brain.service';
import { llmProvider } from '../voice/llm/llm.provider';
import { LLM_ADAPTER } from '../voice/llm/llm-adapter';
import { LateAnswerRelay } from '../voice/late-answer-relay.service';
import { TranscriptService } from '../voice/transcript.service';
import { CallbackIngestService } from './callback-ingest.service';
import { CarrierAAdapter } from './carrier-a/carrier-a.adapter';
import { CarrierBAdapter } from './carrier-b/carrier-b.adapter';
import { CarrierHttp } from './carrier-http';
import { CallbackUrls } from './callback-urls';
import { CallbackHandlers } from './callback.handlers';
import { CARRIER_ADAPTERS, CarrierAdapter } from './carrier-adapter';
import { CarrierRegistry } from './carrier-registry';
import { SandboxLineCarrier } from '../connections/sandbox-line.carrier';

/**
 * Carrier adapters, their callbacks and call progress. A new carrier: provide its adapter here and add
 * it to the CARRIER_ADAPTERS factory's inject list.
 */
@Module({
  imports: [TelephonyModule],
  controllers: [CallbackHandlers],
  providers: [
    CarrierRegistry,
    CallbackUrls,
    CallbackIngestService,
    CallProgressService,
    CarrierReconciler,
    CarrierReconciliationWorker,
    CarrierSilenceCheck,
    CallTransferService,
    RecordingStore,
    TranscriptService,
    LateAnswerRelay,
    AgentBrain,
    llmProvider,
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
  exports: [
    CarrierRegistry,
    CallbackUrls,
    CallProgressService,
    CarrierReconciler,
    RecordingStore,
    LLM_ADAPTER,
    MediaStreamLinks,
    TranscriptService,
    CallTransferService,
    SandboxLineCarrier,
  ],
})
export class CarriersModule {}
