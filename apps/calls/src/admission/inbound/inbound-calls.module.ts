import { Module } from '@nestjs/common';
import { CarriersModule } from '../../carriers/carriers.module';
import { LifecycleHooksModule } from '../../lifecycle-hooks/lifecycle-hooks.module';
import { PartnersModule } from '../../partners/partners.module';
import { ProgressModule } from '../../progress/progress.module';
import { ConnectionsModule } from '../../telephony/connections/connections.module';
import { InboundRoutingModule } from '../../telephony/inbound-routing/inbound-routing.module';
import { AnswerInboundCall } from './usecases/answer-inbound-call/answer-inbound-call.usecase';
import { InboundCallOpener } from './usecases/answer-inbound-call/inbound-call-opener.service';
import { InboundCallsHandlers } from './inbound-calls.handlers';
import { SimulateInboundCall } from './usecases/simulate-inbound-call/simulate-inbound-call.usecase';

/**
 * The admission of an inbound call: the carrier's webhook (verified by its adapter) is routed by the partner's
 * inbound routing, an AI answer opens the call, and the carrier gets the markup that carries out the decision;
 * a sandbox inbound call is rung by the sandbox carrier like any carrier's.
 */
@Module({
  imports: [
    CarriersModule,
    ProgressModule,
    PartnersModule,
    ConnectionsModule,
    LifecycleHooksModule,
    InboundRoutingModule,
  ],
  controllers: [InboundCallsHandlers],
  providers: [AnswerInboundCall, InboundCallOpener, SimulateInboundCall],
})
export class InboundCallsModule {}
