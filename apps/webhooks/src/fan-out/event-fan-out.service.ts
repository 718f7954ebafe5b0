import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { WebhookPayload } from '@vap/api';
import { DomainEvent } from '@vap/messages';
import { AgentFlagService } from '../agent-flag/agent-flag.service';
import { deliveryOrder } from '../deliveries/delivery-order';
import { DeliveryEndpoint, NewDelivery } from '../deliveries/delivery-queue.repository';
import { DeliveryWorkerService } from '../deliveries/delivery-worker.service';
import { WebhookEndpoint } from '../endpoints/entities/webhook-endpoint.entity';
import { selectEndpoints } from './fan-out-rules';

/** The agent a streamed event is about: data.agent_id when the event carries one. */
function agentOf(data: unknown): string | null {
  const agentId = (data as { agent_id?: unknown } | null)?.agent_id;
  return typeof agentId === 'string' && agentId ? agentId : null;
}

interface Recipients {
  /** The partner's enabled endpoints: account-wide ones and, for an agent's events, the agent's own. */
  endpoints: WebhookEndpoint[];
  /** The agent's webhooks_include_account_endpoints (true for events without an agent). */
  include: boolean;
}

/**
 * Turns domain events into one delivery per matching endpoint, in the consumer's transaction (so the inbox
 * marks and the deliveries commit together). The body is fixed here: every attempt and every replay sends
 * the same bytes, `{ event, timestamp, data }` with the event's own time and data.
 */
@Injectable()
export class EventFanOutService {
  constructor(
    private readonly flags: AgentFlagService,
    private readonly deliveries: DeliveryWorkerService,
  ) {}

  /**
   * Fans out a batch of events of one type: endpoints and flags are read once per partner and agent, and
   * all the deliveries are queued in one statement. Returns how many were queued.
   */
  async fanOut(em: EntityManager, eventType: string, events: DomainEvent[]): Promise<number> {
    const read = new Map<string, Recipients>();
    const deliveries: (NewDelivery & { endpoint: DeliveryEndpoint })[] = [];
    for (const event of events) {
      const partnerId = event.partnerId;
      if (!partnerId) continue;
      const agentId = agentOf(event.data);
      const key = `${partnerId}/${agentId ?? ''}`;
      let recipients = read.get(key);
      if (!recipients) read.set(key, (recipients = await this.recipients(em, partnerId, agentId)));
      const targets = selectEndpoints(recipients.endpoints, eventType, agentId, recipients.include);
      if (targets.length === 0) continue;
      const payload: WebhookPayload = { event: eventType, timestamp: event.occurredAt, data: event.data };
      const body = JSON.stringify(payload);
      const order = deliveryOrder(eventType, event.data);
      for (const e of targets)
        deliveries.push({
          partnerId,
          endpointId: e.id,
          eventId: event.id,
          eventType,
          agentId,
          body,
          order,
          endpoint: e,
        });
    }
    return this.deliveries.enqueue(em, deliveries);
  }

  private async recipients(
    em: EntityManager,
    partnerId: string,
    agentId: string | null,
  ): Promise<Recipients> {
    const endpoints = await em
      .createQueryBuilder(WebhookEndpoint, 'e')
      .where('e.partner_id = :partnerId AND e.enabled', { partnerId })
      .andWhere(agentId ? '(e.agent_id IS NULL OR e.agent_id = :agentId)' : 'e.agent_id IS NULL', { agentId })
      .getMany();
    return { endpoints, include: agentId ? await this.flags.get(em, agentId) : true };
  }
}
