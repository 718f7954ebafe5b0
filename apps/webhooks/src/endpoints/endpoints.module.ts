import { Module } from '@nestjs/common';
import { AgentFlagModule } from '../agent-flag/agent-flag.module';
import { AgentWebhooksHandlers } from '../agent-flag/agent-webhooks.handlers';
import { AgentWebhooksService } from '../agent-flag/agent-webhooks.service';
import { EndpointSecretsModule } from './endpoint-secrets.module';
import { WebhookEndpointsHandlers } from './webhook-endpoints.handlers';
import { WebhookEndpointsService } from './webhook-endpoints.service';

@Module({
  imports: [AgentFlagModule, EndpointSecretsModule],
  controllers: [WebhookEndpointsHandlers, AgentWebhooksHandlers],
  providers: [WebhookEndpointsService, AgentWebhooksService],
})
export class EndpointsModule {}
