import { Module } from '@nestjs/common';
import { DecisionClient } from './decision-client';
import { InboundDecisionsService } from './inbound-decisions.service';
import { InboundPoliciesService } from './inbound-policies.service';
import { InboundRouterService } from './inbound-router.service';
import { InboundRoutingHandlers } from './inbound-routing.handlers';

/**
 * Inbound routing: the partner's routing policies, and the decision its URL makes for each inbound call
 * (recorded). The calls themselves are opened by admission (admission/inbound), which asks the router.
 */
@Module({
  controllers: [InboundRoutingHandlers],
  providers: [InboundPoliciesService, InboundDecisionsService, InboundRouterService, DecisionClient],
  exports: [InboundRouterService],
})
export class InboundRoutingModule {}
