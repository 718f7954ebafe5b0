import { Controller } from '@nestjs/common';
import { AgentFlagSetCommand, AgentWebhooksCreateRequest, AgentWebhooksUpdateRequest } from '@vap/api';
import { Subjects } from '@vap/messages';
import { Command, Data, PartnerId, RpcClient } from '@vap/messaging';
import { assertOwnAgent } from '@vap/messaging';
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

  @Command(Subjects.webhooks.agentWebhooksGet)
  get(@Data() { agentId }: { agentId: string }, @PartnerId() partnerId: string) {
    return this.agentWebhooks.get(partnerId, agentId);
  }

  @Command(Subjects.webhooks.agentWebhooksCreate)
  async create(@Data() { agentId, endpoint }: AgentWebhooksCreateRequest, @PartnerId() partnerId: string) {
    await assertOwnAgent(this.rpc, partnerId, agentId);
    const { label, url, events, enabled } = endpoint;
    // The agent is the one in the path; an agent_id in the body is ignored.
    return this.endpoints.create(partnerId, { label, url, events, enabled, agentId });
  }

  @Command(Subjects.webhooks.agentWebhooksUpdate)
  update(@Data() { agentId, changes }: AgentWebhooksUpdateRequest, @PartnerId() partnerId: string) {
    const { include_account_endpoints, webhooks_include_account_endpoints } = changes;
    const include = include_account_endpoints ?? webhooks_include_account_endpoints ?? true;
    return this.agentWebhooks.update(partnerId, agentId, include);
  }

  @Command(Subjects.webhooks.agentFlagSet)
  setFlag(@Data() { agentId, includeAccountEndpoints }: AgentFlagSetCommand, @PartnerId() partnerId: string) {
    return this.agentWebhooks.setFlag(partnerId, agentId, includeAccountEndpoints);
  }
}
