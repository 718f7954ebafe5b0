import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AgentDeletedEvent } from '@vap/api';
import { DomainEvent, DomainEvents } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { LifecycleHook } from './entities/lifecycle-hook.entity';

/** A deleted agent's lifecycle hooks go with it: no call can run them any more. */
@Injectable()
export class LifecycleHooksAgentDeletedConsumer {
  @OnDomainEvent(DomainEvents.agentDeleted, { consumer: 'calls__lifecycle_hooks__agent_deleted' })
  async onAgentDeleted(event: DomainEvent<AgentDeletedEvent>, em: EntityManager): Promise<void> {
    if (!event.partnerId) return;
    await em.delete(LifecycleHook, { partnerId: event.partnerId, agentId: event.data.agent_id });
  }
}
