import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AgentFlagSetCommand,
  AgentFlagSetResult,
  AgentWebhooksDto,
  AgentWebhooksUpdatedDto,
  CreateAgentWebhookEndpointDto,
  RpcRequest,
  Subjects,
  UpdateAgentWebhooksDto,
  WebhookEndpointWithSecretDto,
} from '@vap/contracts';
import { RpcClient } from '@vap/messaging';
import { assertOwnAgent } from '../common/agent-check';
import { partnerOf } from '../common/partner-of';
import { WebhookEndpointsService } from '../endpoints/webhook-endpoints.service';
import { AgentWebhooksService } from './agent-webhooks.service';

/** NATS commands of the agent routes and the agents service's flag command (queue group: webhooks). */
@Controller()
export class AgentWebhooksHandlers {
  constructor(
    private readonly agentWebhooks: AgentWebhooksService,
    private readonly endpoints: WebhookEndpointsService,
    private readonly rpc: RpcClient,
  ) {}

  @MessagePattern(Subjects.webhooks.agentWebhooksGet)
  get(@Payload() req: RpcRequest<{ agent_id: string }>): Promise<AgentWebhooksDto> {
    return this.agentWebhooks.get(partnerOf(req), req.data.agent_id);
  }

  @MessagePattern(Subjects.webhooks.agentWebhooksCreate)
  async create(
    @Payload() req: RpcRequest<{ agent_id: string; endpoint: CreateAgentWebhookEndpointDto }>,
  ): Promise<WebhookEndpointWithSecretDto> {
    const partnerId = partnerOf(req);
    await assertOwnAgent(this.rpc, partnerId, req.data.agent_id);
    const { label, url, events, enabled } = req.data.endpoint;
    // The agent is the one in the path; an agent_id in the body is ignored.
    return this.endpoints.create(partnerId, { label, url, events, enabled, agentId: req.data.agent_id });
  }

  @MessagePattern(Subjects.webhooks.agentWebhooksUpdate)
  update(
    @Payload() req: RpcRequest<{ agent_id: string; changes: UpdateAgentWebhooksDto }>,
  ): Promise<AgentWebhooksUpdatedDto> {
    const { include_account_endpoints, webhooks_include_account_endpoints } = req.data.changes;
    const include = include_account_endpoints ?? webhooks_include_account_endpoints ?? true;
    return this.agentWebhooks.update(partnerOf(req), req.data.agent_id, include);
  }

  @MessagePattern(Subjects.webhooks.agentFlagSet)
  setFlag(@Payload() req: RpcRequest<AgentFlagSetCommand>): Promise<AgentFlagSetResult> {
    return this.agentWebhooks.setFlag(partnerOf(req), req.data.agent_id, req.data.include_account_endpoints);
  }
}
