import { Module } from '@nestjs/common';
import { ProgressModule } from '../progress/progress.module';
import { ConnectionsModule } from '../telephony/connections/connections.module';
import { NUMBER_DETACHERS } from '../telephony/phone-numbers/number-detachers';
import { ACCOUNT_PROBES } from '../telephony/connections/account-probes';
import { accountProbesOf } from './account-probe';
import { BrowserTransport } from './browser/browser-transport';
import { CallTransports, DIRECT_TRANSPORTS, DirectTransport } from './call-transport';
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
import { MessageCarriers } from './message-carriers';
import { numberDetachersOf } from './number-detacher';
import { SandboxLineCarrier } from './sandbox-line.carrier';
import { CarrierReconciler } from './reconciliation/carrier-reconciler.service';
import { CarrierReconciliationWorker } from './reconciliation/carrier-reconciliation-worker.service';
import { CarrierSilenceCheck } from './reconciliation/carrier-silence-check.service';
import { TransferLegs } from './transfer-legs/transfer-legs.service';

/**
 * The transports calls run on: the carriers' adapters (behind CarrierRegistry), their status callbacks, and
 * the reconciliation that asks them about calls whose callbacks went missing, both feeding the call's
 * progress; and the browser, a transport with no carrier (DIRECT_TRANSPORTS) whose sessions the platform ends
 * itself through the same progress. Live-call code finds either through CallTransports. A new carrier: provide
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
    { provide: NUMBER_DETACHERS, inject: [CarrierRegistry], useFactory: numberDetachersOf },
    { provide: ACCOUNT_PROBES, inject: [CarrierRegistry], useFactory: accountProbesOf },
    BrowserTransport,
    {
      provide: DIRECT_TRANSPORTS,
      inject: [BrowserTransport],
      useFactory: (...transports: DirectTransport[]) => transports,
    },
    CallTransports,
    TransferLegs,
    MessageCarriers,
  ],
  exports: [
    MessageCarriers,
    TransferLegs,
    CarrierRegistry,
    CallTransports,
    BrowserTransport,
    CallbackUrls,
    CarrierReconciler,
    SandboxLineCarrier,
    NUMBER_DETACHERS,
    ACCOUNT_PROBES,
  ],
})
export class CarriersModule {}
