import { Module } from '@nestjs/common';
import { AgentFlagModule } from '../agent-flag/agent-flag.module';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EventFanOutService } from './event-fan-out.service';
import { FanOutConsumers } from './fan-out.consumers';

@Module({
  imports: [AgentFlagModule, DeliveriesModule],
  providers: [EventFanOutService, FanOutConsumers],
})
export class FanOutModule {}
