import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AgentWebhookFlagChangedEvent } from '@vap/api';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { lockScope } from '../common/scope-lock';
import { WebhookEndpoint } from '../endpoints/entities/webhook-endpoint.entity';
import { AgentSetting } from './entities/agent-setting.entity';

/**
 * The agent fan-out flag webhooks_include_account_endpoints, per the contract's state table: it can be
 * false only while the agent has an enabled endpoint of its own, and it flips back to true by itself when
 * the last one is deleted or disabled. Every change is an event, so the agents service echoes it.
 */
@Injectable()
export class AgentFlagService {
  constructor(private readonly outbox: OutboxService) {}

  async get(em: EntityManager, agentId: string): Promise<boolean> {
    const row = await em.findOneBy(AgentSetting, { agentId });
    return row?.includeAccountEndpoints ?? true;
  }

  /** The flags of several agents (default true), for fan-out. */
  async getMany(em: EntityManager, agentIds: string[]): Promise<Map<string, boolean>> {
    const out = new Map(agentIds.map((id) => [id, true]));
    if (agentIds.length === 0) return out;
    const rows = await em
      .createQueryBuilder(AgentSetting, 's')
      .where('s.agent_id IN (:...agentIds)', { agentIds })
      .getMany();
    for (const r of rows) out.set(r.agentId, r.includeAccountEndpoints);
    return out;
  }

  /** Sets the flag; false without an enabled own endpoint is 409 NO_AGENT_ENDPOINT. Returns the stored value. */
  async set(em: EntityManager, partnerId: string, agentId: string, include: boolean): Promise<boolean> {
    await lockScope(em, partnerId, agentId);
    if (!include && (await this.enabledOwnEndpoints(em, partnerId, agentId)) === 0) {
      throw new AppError(
        ErrorCode.NO_AGENT_ENDPOINT,
        'webhooks_include_account_endpoints can be false only while the agent has an enabled webhook endpoint of its own',
      );
    }
    if ((await this.get(em, agentId)) !== include) await this.store(em, partnerId, agentId, include, 'set');
    return include;
  }

  /**
   * After one of the agent's endpoints was deleted or disabled: with no enabled own endpoint left, the flag
   * goes back to true. The caller holds the agent's scope lock.
   */
  async flipBackIfOrphaned(em: EntityManager, partnerId: string, agentId: string): Promise<void> {
    if (await this.get(em, agentId)) return;
    if ((await this.enabledOwnEndpoints(em, partnerId, agentId)) > 0) return;
    await this.store(em, partnerId, agentId, true, 'flipped_back');
  }

  private enabledOwnEndpoints(em: EntityManager, partnerId: string, agentId: string): Promise<number> {
    return em.countBy(WebhookEndpoint, { partnerId, agentId, enabled: true });
  }

  private async store(
    em: EntityManager,
    partnerId: string,
    agentId: string,
    include: boolean,
    reason: AgentWebhookFlagChangedEvent['reason'],
  ): Promise<void> {
    const now = new Date();
    await em.upsert(AgentSetting, { agentId, partnerId, includeAccountEndpoints: include, updatedAt: now }, [
      'agentId',
    ]);
    await this.outbox.record(em, DomainEvents.agentWebhookFlagChanged, partnerId, {
      agent_id: agentId,
      include_account_endpoints: include,
      reason,
      changed_at: now.toISOString(),
    });
  }
}
