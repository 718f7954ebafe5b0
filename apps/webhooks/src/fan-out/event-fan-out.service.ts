import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, WebhookPayload } from '@vap/contracts';
import { AgentFlagService } from '../agent-flag/agent-flag.service';
import { DeliveryQueueRepository } from '../deliveries/delivery-queue.repository';
import { WebhookEndpoint } from '../endpoints/entities/webhook-endpoint.entity';
import { selectEndpoints } from './fan-out-rules';

/** The agent a streamed event is about: data.agent_id when the event carries one. */
function agentOf(data: unknown): string | null {
  const agentId = (data as { agent_id?: unknown } | null)?.agent_id;
  return typeof agentId === 'string' && agentId ? agentId : null;
}

/**
 * Turns one domain event into one delivery per matching endpoint, in the consumer's transaction (so the
 * inbox mark and the deliveries commit together). The body is fixed here: every attempt and every replay
 * sends the same bytes, `{ event, timestamp, data }` with the event's own time and data.
 */
@Injectable()
export class EventFanOutService {
  constructor(
    private readonly flags: AgentFlagService,
    private readonly queue: DeliveryQueueRepository,
  ) {}

  async fanOut(em: EntityManager, eventType: string, event: DomainEvent): Promise<number> {
    if (!event.partnerId) return 0;
    const agentId = agentOf(event.data);
    const endpoints = await em
      .createQueryBuilder(WebhookEndpoint, 'e')
      .where('e.partner_id = :partnerId AND e.enabled', { partnerId: event.partnerId })
      .andWhere(agentId ? '(e.agent_id IS NULL OR e.agent_id = :agentId)' : 'e.agent_id IS NULL', { agentId })
      .getMany();
    const include = agentId ? await this.flags.get(em, agentId) : true;
    const targets = selectEndpoints(endpoints, eventType, agentId, include);
    if (targets.length === 0) return 0;
    const payload: WebhookPayload = { event: eventType, timestamp: event.occurredAt, data: event.data };
    const body = JSON.stringify(payload);
    const queued = await this.queue.enqueue(
      em,
      targets.map((e) => ({
        partnerId: event.partnerId!,
        endpointId: e.id,
        eventId: event.id,
        eventType,
        agentId,
        body,
      })),
    );
    return queued.length;
  }
}
