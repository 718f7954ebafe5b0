import { Module } from '@nestjs/common';
import { InboundCallWebhooksController } from './inbound-call-webhooks.controller';
import { InboundRouteDecisionsController } from './inbound-route-decisions.controller';
import { InboundRoutePoliciesController } from './inbound-route-policies.controller';

@Module({
  controllers: [
    InboundRoutePoliciesController,
    InboundRouteDecisionsController,
    InboundCallWebhooksController,
  ],
})
export class InboundRoutingModule {}
