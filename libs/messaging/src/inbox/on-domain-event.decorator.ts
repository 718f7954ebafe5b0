import { SetMetadata } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, EventPayload, EventSubject } from '@vap/messages';

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
  /**
   * Events applied in one transaction, at most (default 1). Events already fetched are taken together:
   * one BEGIN, one inbox insert and one COMMIT for all of them, the handler running for each in turn. If
   * the batch fails, each of its events is applied again on its own, so one failing event delays only
   * itself. Suits handlers whose cost is mostly round trips, e.g. a fan-out.
   */
  batch?: number;
  /**
   * Which events concern the handler; the others are acked without a transaction or an inbox row. For a
   * consumer that acts on few of a busy subject's events (say, only campaign calls' status).
   */
  accepts?: (event: DomainEvent) => boolean;
  /** Set by @OnDomainEventBatch: the method takes the batch's events at once. */
  batched?: boolean;
}

/** The data of a subject's events: EventMap's for the platform's subjects; unknown for others (lib tests). */
export type EventDataOf<S extends string> = S extends EventSubject ? EventPayload<S> : unknown;

/** What an @OnDomainEvent(subject) method is: it receives the subject's events, typed by EventMap. */
export type DomainEventHandler<S extends string> = (
  event: DomainEvent<EventDataOf<S>>,
  em: EntityManager,
) => Promise<void>;

/**
 * Subjects outside EventMap (the lib's own tests) are not checked. Methods are compared bivariantly, so a handler declaring a narrower payload would pass a plain
 * `DomainEventHandler<S>` constraint: this checks the one direction that matters, that the event the
 * subject carries is assignable to the handler's first parameter.
 */
type AcceptsEvent<S extends string, P extends unknown[]> = S extends EventSubject
  ? P extends [infer E, ...unknown[]]
    ? DomainEvent<EventPayload<S>> extends E
      ? unknown
      : { 'handler parameter does not accept the payload of': S }
    : unknown
  : unknown;

/**
 * Marks a provider method `(event: DomainEvent<EventPayload<S>>, em: EntityManager) => Promise<void>` as a
 * durable, idempotent consumer of one domain event. It runs in a transaction with the inbox row, so its
 * writes and the "handled" mark commit together. A handler whose parameter does not accept the subject's
 * payload (EventMap) does not compile.
 */
export function OnDomainEvent<S extends string>(
  subject: S,
  options: Omit<DomainEventHandlerOptions, 'subject'> = {},
) {
  const mark = SetMetadata(ON_DOMAIN_EVENT, { subject, ...options } satisfies DomainEventHandlerOptions);
  return <P extends unknown[]>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<(...args: P) => Promise<void>> & AcceptsEvent<S, P>,
  ): void => {
    mark(target, key, descriptor);
  };
}

/** What an @OnDomainEventBatch(subject) method is: the events of one transaction, not handled before. */
export type DomainEventBatchHandler<S extends string> = (
  events: DomainEvent<EventDataOf<S>>[],
  em: EntityManager,
) => Promise<void>;

/**
 * Like @OnDomainEvent, for a handler that does better with the events of a batch at once (`options.batch`
 * of them at most, those not handled before): one query for all of them instead of one per event. They
 * commit together with their inbox rows; if the batch fails, each event is handed over again on its own.
 */
export function OnDomainEventBatch<S extends string>(
  subject: S,
  options: Omit<DomainEventHandlerOptions, 'subject' | 'batched'> = {},
) {
  const mark = SetMetadata(ON_DOMAIN_EVENT, {
    subject,
    ...options,
    batched: true,
  } satisfies DomainEventHandlerOptions);
  return (
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<DomainEventBatchHandler<S>>,
  ): void => {
    mark(target, key, descriptor);
  };
}
