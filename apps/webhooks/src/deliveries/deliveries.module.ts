import { Module } from '@nestjs/common';
import { AgentFlagModule } from '../agent-flag/agent-flag.module';
import { EndpointSecretsModule } from '../endpoints/endpoint-secrets.module';
import { DeliveriesHandlers } from './deliveries.handlers';
import { DeliveriesService } from './deliveries.service';
import { DeliveryQueueRepository } from './delivery-queue.repository';
import { DeliverySender } from './delivery-sender';
import { DeliveryWorkerService } from './delivery-worker.service';
import { EndpointHealthService } from './endpoint-health.service';

@Module({
  imports: [AgentFlagModule, EndpointSecretsModule],
  controllers: [DeliveriesHandlers],
  providers: [
    DeliveriesService,
    DeliveryQueueRepository,
    DeliverySender,
    DeliveryWorkerService,
    EndpointHealthService,
  ],
  exports: [DeliveryQueueRepository, DeliveryWorkerService],
})
export class DeliveriesModule {}
