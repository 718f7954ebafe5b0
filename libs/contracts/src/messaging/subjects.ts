/**
 * Command subjects: `<service>.<resource>.<verb>`, request/reply, one queue group per service.
 * Domain events: `events.<aggregate>.<event>` on the JetStream stream EVENTS.
 * A deployment-wide prefix (NATS_SUBJECT_PREFIX) is applied by the messaging lib, never here.
 */
export const Subjects = {
  gateway: {
    ping: 'gateway.health.ping',
    customerCreate: 'gateway.customer.create',
    customerList: 'gateway.customer.list',
    customerGet: 'gateway.customer.get',
    customerUpdate: 'gateway.customer.update',
    partnerGet: 'gateway.partner.get',
  },
  agents: { ping: 'agents.health.ping' },
  calls: { ping: 'calls.health.ping' },
  campaigns: { ping: 'campaigns.health.ping' },
  webhooks: { ping: 'webhooks.health.ping' },
} as const;

export type ServiceName = keyof typeof Subjects;
export const SERVICE_NAMES = Object.keys(Subjects) as ServiceName[];

export const EVENTS_STREAM = 'EVENTS';
export const EVENT_SUBJECT_ROOT = 'events';

/** Domain event types and their subjects (relative to the prefix). */
export const DomainEvents = {
  partnerCreated: 'events.partner.created',
  partnerUpdated: 'events.partner.updated',
  customerCreated: 'events.customer.created',
  customerUpdated: 'events.customer.updated',
} as const;
export type DomainEventSubject = (typeof DomainEvents)[keyof typeof DomainEvents];

/** The shape of every domain event on the stream. */
export interface DomainEvent<T = unknown> {
  id: string;
  subject: string;
  partnerId: string | null;
  occurredAt: string;
  requestId?: string;
  data: T;
}
