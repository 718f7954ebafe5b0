import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateWebhookEndpointDto,
  LegacyWebhookDto,
  LegacyWebhookResultDto,
  RpcRequest,
  Subjects,
  UpdateWebhookEndpointDto,
  WebhookEndpointDeletedDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
} from '@vap/contracts';
import { RpcClient } from '@vap/messaging';
import { assertOwnAgent } from '../common/agent-check';
import { partnerOf } from '../common/partner-of';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** NATS commands of /config/webhooks and the legacy /config/webhook (queue group: webhooks). */
@Controller()
export class WebhookEndpointsHandlers {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly rpc: RpcClient,
  ) {}

  @MessagePattern(Subjects.webhooks.endpointCreate)
  async create(@Payload() req: RpcRequest<CreateWebhookEndpointDto>): Promise<WebhookEndpointWithSecretDto> {
    const partnerId = partnerOf(req);
    const { label, url, events, enabled, agent_id } = req.data;
    if (agent_id) await assertOwnAgent(this.rpc, partnerId, agent_id);
    return this.endpoints.create(partnerId, { label, url, events, enabled, agentId: agent_id ?? null });
  }

  @MessagePattern(Subjects.webhooks.endpointList)
  list(@Payload() req: RpcRequest): Promise<WebhookEndpointListDto> {
    return this.endpoints.list(partnerOf(req));
  }

  @MessagePattern(Subjects.webhooks.endpointUpdate)
  update(
    @Payload() req: RpcRequest<{ id: string; changes: UpdateWebhookEndpointDto }>,
  ): Promise<WebhookEndpointDto> {
    return this.endpoints.update(partnerOf(req), req.data.id, req.data.changes);
  }

  @MessagePattern(Subjects.webhooks.endpointDelete)
  remove(@Payload() req: RpcRequest<{ id: string }>): Promise<WebhookEndpointDeletedDto> {
    return this.endpoints.remove(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.webhooks.endpointRotateSecret)
  rotate(@Payload() req: RpcRequest<{ id: string }>): Promise<WebhookEndpointWithSecretDto> {
    return this.endpoints.rotateSecret(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.webhooks.legacyEndpointPut)
  putLegacy(@Payload() req: RpcRequest<LegacyWebhookDto>): Promise<LegacyWebhookResultDto> {
    return this.endpoints.putLegacy(partnerOf(req), req.data.webhook_url);
  }
}
