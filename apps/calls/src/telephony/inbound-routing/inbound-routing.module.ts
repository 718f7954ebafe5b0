import { Module } from '@nestjs/common';
import { DecisionClient } from './decision-client';
import { InboundRouterService } from './inbound-router.service';
import { InboundRoutingHandlers } from './inbound-routing.handlers';
import { CreateInboundPolicy } from './usecases/create-inbound-policy/create-inbound-policy.usecase';
import { DeleteInboundPolicy } from './usecases/delete-inbound-policy/delete-inbound-policy.usecase';
import { GetInboundPolicy } from './usecases/get-inbound-policy/get-inbound-policy.usecase';
import { ListInboundDecisions } from './usecases/list-inbound-decisions/list-inbound-decisions.usecase';
import { ListInboundPolicies } from './usecases/list-inbound-policies/list-inbound-policies.usecase';
import { UpdateInboundPolicy } from './usecases/update-inbound-policy/update-inbound-policy.usecase';

/**
 * Inbound routing: the partner's routing policies, and the decision its URL makes for each inbound call
 * (recorded). The calls themselves are opened by admission (admission/inbound), which asks the router.
 */
@Module({
  controllers: [InboundRoutingHandlers],
  providers: [
    CreateInboundPolicy,
    ListInboundPolicies,
    GetInboundPolicy,
    UpdateInboundPolicy,
    DeleteInboundPolicy,
    ListInboundDecisions,
    InboundRouterService,
    DecisionClient,
  ],
  exports: [InboundRouterService],
})
export class InboundRoutingModule {}
