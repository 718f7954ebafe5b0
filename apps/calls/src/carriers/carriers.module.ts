import { Module } from '@nestjs/common';
import { CallTransferService } from '../media-sessions/call-transfer.service';
import { TelephonyModule } from '../telephony/connections/connections.module';
import { CallProgressService } from '../progress/call-progress.service';
import { CarrierReconciler } from './reconciliation/carrier-reconciler.service';
import { CarrierReconciliationWorker } from './reconciliation/carrier-reconciliation-worker.service';
import { MediaStreamLinks } from './media-stream-links';
import { RecordingStore } from '../recording/recording-store';
import { llmProvider } from '../post-call/llm/llm.provider';
import { LLM_ADAPTER } from '../post-call/llm/llm-adapter';
import { LateAnswerRelay } from './late-answer-relay.service';
import { TranscriptService } from '../media-sessions/transcript.service';
import { CallbackIngestService } from './callback-ingest.service';
import { CarrierAAdapter } from './carrier-a/carrier-a.adapter';
import { CarrierBAdapter } from './carrier-b/carrier-b.adapter';
import { CarrierHttp } from './carrier-http';
import { CallbackUrls } from './callback-urls';
import { CallbackHandlers } from './callback.handlers';
import { CARRIER_ADAPTERS, CarrierAdapter } from './carrier-adapter';
import { CarrierRegistry } from './carrier-registry';
import { SandboxCallRunner } from './sandbox/sandbox-call-runner';
import { SandboxCallbackClient } from './sandbox/sandbox-callback-client';
import { SandboxCarrier } from './sandbox/sandbox-carrier';
import { SandboxSigningKey } from './sandbox/sandbox-signing-key';

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
    CallTransferService,
    RecordingStore,
    TranscriptService,
    LateAnswerRelay,
    llmProvider,
    SandboxSigningKey,
    SandboxCallbackClient,
    SandboxCallRunner,
    SandboxCarrier,
    CarrierHttp,
    MediaStreamLinks,
    CarrierAAdapter,
    CarrierBAdapter,
    {
      provide: CARRIER_ADAPTERS,
      inject: [SandboxCarrier, CarrierAAdapter, CarrierBAdapter],
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
    SandboxCallRunner,
  ],
})
export class CarriersModule {}
