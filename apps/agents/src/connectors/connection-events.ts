import { EntityManager } from 'typeorm';
import type { CustomerConnectionEventReason, CustomerConnectionUpdatedEvent } from '@vap/api';
import { DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { Connector } from './entities/connector.entity';
import { CustomerConnection } from './entities/customer-connection.entity';

/**
 * Records customer_connection.updated in the transaction that changed the connection, so the webhook goes out
 * exactly when the change is committed. The event names the connection and its connector; never a token or key.
 */
export function recordConnectionEvent(
  outbox: OutboxService,
  em: EntityManager,
  connection: CustomerConnection,
  connector: Connector,
  status: CustomerConnectionUpdatedEvent['status'],
  reason: CustomerConnectionEventReason,
): Promise<unknown> {
  const data: CustomerConnectionUpdatedEvent = {
    customer_id: connection.customerId,
    connection_id: connection.id,
    connector_id: connector.id,
    connector_name: connector.name,
    status,
    reason,
    occurred_at: new Date().toISOString(),
  };
  return outbox.record(em, DomainEvents.customerConnectionUpdated, connection.partnerId, data);
}
