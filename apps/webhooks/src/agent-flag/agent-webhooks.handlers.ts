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
  get(@Data() { agent_id }: { agent_id: string }, @PartnerId() partnerId: string) {
    return this.agentWebhooks.get(partnerId, agent_id);
  }

  @Command(Subjects.webhooks.agentWebhooksCreate)
  async create(@Data() { agent_id, endpoint }: AgentWebhooksCreateRequest, @PartnerId() partnerId: string) {
    await assertOwnAgent(this.rpc, partnerId, agent_id);
    const { label, url, events, enabled } = endpoint;
    // The agent is the one in the path; an agent_id in the body is ignored.
    return this.endpoints.create(partnerId, { label, url, events, enabled, agentId: agent_id });
  }

  @Command(Subjects.webhooks.agentWebhooksUpdate)
  update(@Data() { agent_id, changes }: AgentWebhooksUpdateRequest, @PartnerId() partnerId: string) {
    const { include_account_endpoints, webhooks_include_account_endpoints } = changes;
    const include = include_account_endpoints ?? webhooks_include_account_endpoints ?? true;
    return this.agentWebhooks.update(partnerId, agent_id, include);
  }

  @Command(Subjects.webhooks.agentFlagSet)
  setFlag(
    @Data() { agent_id, include_account_endpoints }: AgentFlagSetCommand,
    @PartnerId() partnerId: string,
  ) {
    return this.agentWebhooks.setFlag(partnerId, agent_id, include_account_endpoints);
  }
}
