import { SetMetadata } from '@nestjs/common';

export const ON_DOMAIN_EVENT = Symbol('ON_DOMAIN_EVENT');

export interface DomainEventHandlerOptions {
  /** The logical subject, e.g. DomainEvents.partnerUpdated. */
  subject: string;
  /** Durable consumer name; defaults to `<service>__<subject>`. Two handlers of one event need two names. */
  consumer?: string;
  /**
   * Events handled at once (default 1: one after another, in stream order). More suits handlers whose
   * events are independent of each other and whose time goes into commits, e.g. a fan-out.
   */
  concurrency?: number;
}

/**
 * Marks a provider method `(event: DomainEvent<T>, em: EntityManager) => Promise<void>` as a durable,
 * idempotent consumer of one domain event. It runs in a transaction with the inbox row, so its writes
 * and the "handled" mark commit together.
 */
export const OnDomainEvent = (subject: string, options: Omit<DomainEventHandlerOptions, 'subject'> = {}) =>
  SetMetadata(ON_DOMAIN_EVENT, { subject, ...options } satisfies DomainEventHandlerOptions);
