import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AgentFlagSetResult, AgentWebhooksDto, AgentWebhooksUpdatedDto, WEBHOOK_EVENT_TYPES } from '@vap/api';
import { assertOwnAgent, RpcClient } from '@vap/messaging';
import { WebhookEndpointsService } from '../endpoints/webhook-endpoints.service';
import { AgentFlagService } from './agent-flag.service';

/** /agent/{agent_id}/webhooks: one agent's own endpoints and its fan-out flag; a deleted agent is 404. */
@Injectable()
export class AgentWebhooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    private readonly endpoints: WebhookEndpointsService,
    private readonly flags: AgentFlagService,
  ) {}

  async get(partnerId: string, agentId: string): Promise<AgentWebhooksDto> {
    await assertOwnAgent(this.rpc, partnerId, agentId);
    return this.view(partnerId, agentId);
  }

  async update(partnerId: string, agentId: string, include: boolean): Promise<AgentWebhooksUpdatedDto> {
    await assertOwnAgent(this.rpc, partnerId, agentId);
    const stored = await this.setFlag(partnerId, agentId, include);
    return {
      ...(await this.view(partnerId, agentId)),
      webhooks_include_account_endpoints: stored.includeAccountEndpoints,
    };
  }

  /** For the agents service, which has checked the agent itself. */
  async setFlag(partnerId: string, agentId: string, include: boolean): Promise<AgentFlagSetResult> {
    const stored = await this.dataSource.transaction((em) => this.flags.set(em, partnerId, agentId, include));
    return { agentId, includeAccountEndpoints: stored };
  }

  private async view(partnerId: string, agentId: string): Promise<AgentWebhooksDto> {
    const em = this.dataSource.manager;
    return {
      agent_id: agentId,
      endpoints: await this.endpoints.listForAgent(em, partnerId, agentId),
      include_account_endpoints: await this.flags.get(em, agentId),
      available_events: [...WEBHOOK_EVENT_TYPES],
    };
  }
}
