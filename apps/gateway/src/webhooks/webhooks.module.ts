import { Module } from '@nestjs/common';
import { AgentWebhooksController } from './agent-webhooks.controller';
import { LegacyWebhookController } from './legacy-webhook.controller';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookEndpointsController } from './webhook-endpoints.controller';

@Module({
  controllers: [
    WebhookEndpointsController,
    LegacyWebhookController,
    AgentWebhooksController,
    WebhookDeliveriesController,
  ],
})
export class WebhooksModule {}
