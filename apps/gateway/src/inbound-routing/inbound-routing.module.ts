import { Module } from '@nestjs/common';
import { InboundRouteDecisionsController } from './inbound-route-decisions.controller';
import { InboundRoutePoliciesController } from './inbound-route-policies.controller';

@Module({ controllers: [InboundRoutePoliciesController, InboundRouteDecisionsController] })
export class InboundRoutingModule {}
