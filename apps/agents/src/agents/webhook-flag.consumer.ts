import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AgentWebhookFlagChangedEvent } from '@vap/api';
import { DomainEvent, DomainEvents } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { Agent } from './entities/agent.entity';

/**
 * The webhooks service owns webhooks_include_account_endpoints; the agent record keeps a copy to echo,
 * refreshed when the flag is set or flips back by itself (the agent's last enabled endpoint went away).
 */
@Injectable()
export class WebhookFlagConsumer {
  @OnDomainEvent(DomainEvents.agentWebhookFlagChanged)
  async onFlagChanged(event: DomainEvent<AgentWebhookFlagChangedEvent>, em: EntityManager): Promise<void> {
    if (!event.partnerId) return;
    await em.update(
      Agent,
      { id: event.data.agent_id, partnerId: event.partnerId },
      { webhooksIncludeAccountEndpoints: event.data.include_account_endpoints },
    );
  }
}
