import { Module } from '@nestjs/common';
import { CarriersModule } from '../../carriers/carriers.module';
import { LifecycleHooksModule } from '../../lifecycle-hooks/lifecycle-hooks.module';
import { PartnersModule } from '../../partners/partners.module';
import { ProgressModule } from '../../progress/progress.module';
import { ConnectionsModule } from '../connections/connections.module';
import { DecisionClient } from './decision-client';
import { InboundCallbackService } from './inbound-callback.service';
import { InboundCallOpener } from './inbound-call-opener.service';
import { InboundDecisionsService } from './inbound-decisions.service';
import { InboundPoliciesService } from './inbound-policies.service';
import { InboundRouterService } from './inbound-router.service';
import { InboundRoutingHandlers } from './inbound-routing.handlers';
import { SandboxInboundService } from './sandbox-inbound.service';

/**
 * Inbound calls: the partner's routing policies, the decision its URL makes for each call (recorded), and
 * the call opened on an answer; a sandbox inbound call is rung by the sandbox carrier like any carrier's.
 */
@Module({
  imports: [CarriersModule, ProgressModule, PartnersModule, ConnectionsModule, LifecycleHooksModule],
  controllers: [InboundRoutingHandlers],
  providers: [
    InboundPoliciesService,
    InboundDecisionsService,
    InboundRouterService,
    DecisionClient,
    InboundCallbackService,
    InboundCallOpener,
    SandboxInboundService,
  ],
})
export class InboundRoutingModule {}
