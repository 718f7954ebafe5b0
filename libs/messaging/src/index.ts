export * from './messaging.options';
export * from './messaging.module';
export * from './nats-connection.service';
export * from './request-context';
export * from './codec';
export * from './rpc/rpc-client.service';
export * from './rpc/nats-rpc.server';
export * from './rpc/addressed-command.server';
export * from './liveness/heartbeat-bucket';
export * from './rpc/agent-ownership';
export * from './events/event-stream.service';
export * from './outbox/outbox-record.entity';
export * from './outbox/outbox.service';
export * from './outbox/outbox-relay.service';
export * from './inbox/inbox-record.entity';
export * from './inbox/on-domain-event.decorator';
export * from './inbox/event-consumer.service';
export * from './inbox/inbox-pruner.service';
export * from './messaging-tables';

import { OutboxRecord } from './outbox/outbox-record.entity';
import { InboxRecord } from './inbox/inbox-record.entity';
/** Entities every service's DataSource must register. */
export const MESSAGING_ENTITIES = [OutboxRecord, InboxRecord];
export * from './messaging.metrics';
export * from './trace-propagation';
export * from './rpc/command.decorators';
export * from './rpc/command-validation.pipe';
export * from './nats-permissions';
