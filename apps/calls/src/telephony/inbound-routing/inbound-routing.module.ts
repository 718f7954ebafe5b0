import { Module } from '@nestjs/common';
import { CarriersModule } from '../../carriers/carriers.module';
import { DefaultLineService } from '../connections/default-line.service';
import { LifecycleModule } from '../../lifecycle/lifecycle.module';
import { PartnersModule } from '../../partners/partners.module';
import { DecisionClient } from './decision-client';
import { InboundCallbackService } from './inbound-callback.service';
import { InboundCallOpener } from './inbound-call-opener.service';
import { InboundDecisionsService } from './inbound-decisions.service';
import { InboundPoliciesService } from './inbound-policies.service';
import { InboundRouterService } from './inbound-router.service';
import { InboundRoutingHandlers } from './inbound-routing.handlers';
import { SandboxInboundService } from '../../inbound-routing/sandbox-inbound.service';

@Module({
  imports: [CarriersModule, LifecycleModule, PartnersModule],
  controllers: [InboundRoutingHandlers],
  providers: [
    InboundPoliciesService,
    InboundDecisionsService,
    InboundRouterService,
    DecisionClient,
    SandboxInboundService,
    InboundCallbackService,
    InboundCallOpener,
    DefaultLineService,
  ],
  exports: [InboundRouterService],
})
export class InboundRoutingModule {}
