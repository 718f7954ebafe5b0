import { Controller } from '@nestjs/common';
import { CreateWebhookEndpointDto, LegacyWebhookDto, UpdateWebhookEndpointDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId, RpcClient } from '@vap/messaging';
import { assertOwnAgent } from '@vap/messaging';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** NATS commands of /config/webhooks and the legacy /config/webhook (queue group: webhooks). */
@Controller()
export class WebhookEndpointsHandlers {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly rpc: RpcClient,
  ) {}

  @Command(Subjects.webhooks.endpointCreate)
  async create(@Data() data: CreateWebhookEndpointDto, @PartnerId() partnerId: string) {
    const { label, url, events, enabled, agent_id } = data;
    if (agent_id) await assertOwnAgent(this.rpc, partnerId, agent_id);
    return this.endpoints.create(partnerId, { label, url, events, enabled, agentId: agent_id ?? null });
  }

  @Command(Subjects.webhooks.endpointList)
  list(@PartnerId() partnerId: string) {
    return this.endpoints.list(partnerId);
  }

  @Command(Subjects.webhooks.endpointUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateWebhookEndpointDto>, @PartnerId() partnerId: string) {
    return this.endpoints.update(partnerId, id, changes);
  }

  @Command(Subjects.webhooks.endpointDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.endpoints.remove(partnerId, id);
  }

  @Command(Subjects.webhooks.endpointRotateSecret)
  rotate(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.endpoints.rotateSecret(partnerId, id);
  }

  @Command(Subjects.webhooks.legacyEndpointPut)
  putLegacy(@Data() { webhook_url }: LegacyWebhookDto, @PartnerId() partnerId: string) {
    return this.endpoints.putLegacy(partnerId, webhook_url);
  }
}
