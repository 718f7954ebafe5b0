import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  DomainEvent,
  DomainEvents,
  INTEGRATION_OUTCOMES,
  INTEGRATION_REQUEST_KINDS,
  IntegrationLogEntry,
  isUuid,
} from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { IntegrationLogWriter } from './integration-log.writer';

const isText = (value: unknown): value is string => typeof value === 'string';
const isOptionalUuid = (value: unknown) => value === null || isUuid(value);
const isOptionalText = (value: unknown) => value === null || isText(value);
const isCount = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Why an entry from another service cannot be stored, or null when it can. Checked here because a row the
 * table refuses (a call id that is no UUID) would fail the event at every redelivery, holding up the rest.
 */
export function unstorableBecause(entry: IntegrationLogEntry): string | null {
  if (!isUuid(entry.id)) return 'its id is not a UUID';
  if (!INTEGRATION_REQUEST_KINDS.includes(entry.kind)) return `unknown kind ${String(entry.kind)}`;
  if (!INTEGRATION_OUTCOMES.includes(entry.outcome)) return `unknown outcome ${String(entry.outcome)}`;
  if (!isOptionalUuid(entry.callId) || !isOptionalUuid(entry.agentId))
    return 'a call or agent id is not a UUID';
  if (![entry.browserSessionId, entry.functionId, entry.hookId].every(isOptionalText))
    return 'a session, function or hook id is not text';
  if (!isText(entry.method) || !isText(entry.url)) return 'no method or URL';
  const headers = entry.requestHeaders as unknown;
  if (
    !headers ||
    typeof headers !== 'object' ||
    Array.isArray(headers) ||
    !Object.values(headers).every(isText)
  )
    return 'request headers are not names and text values';
  if (![entry.requestBody, entry.responseBody, entry.error].every(isOptionalText))
    return 'a body is not text';
  if (
    entry.status !== null &&
    !(Number.isInteger(entry.status) && entry.status >= 100 && entry.status <= 999)
  )
    return 'the status is not an HTTP status';
  if (!isCount(entry.latencyMs) || !Number.isInteger(entry.attempts) || entry.attempts < 1)
    return 'latency or attempts out of range';
  if (!isText(entry.startedAt) || Number.isNaN(Date.parse(entry.startedAt))) return 'no start time';
  return null;
}

/**
 * Stores the requests other services made to partners' systems (inbound decisions, lifecycle hooks) in
 * the integration log, in the transaction of the inbox row.
 */
@Injectable()
export class RequestLoggedConsumer {
  private readonly logger = new Logger(RequestLoggedConsumer.name);

  constructor(private readonly writer: IntegrationLogWriter) {}

  // Entries are independent of each other and each is one insert: a batch saves round trips.
  @OnDomainEvent(DomainEvents.integrationRequestLogged, { batch: 32 })
  async onRequestLogged(event: DomainEvent<IntegrationLogEntry>, em: EntityManager): Promise<void> {
    // The event's partner is the one its recorder's outbox wrote; an entry naming another is not stored.
    if (!event.partnerId || event.partnerId !== event.data.partnerId) {
      this.logger.warn(`integration log event ${event.id} names another partner than its event; dropped`);
      return;
    }
    const why = unstorableBecause(event.data);
    if (why) {
      this.logger.warn(`integration log event ${event.id} cannot be stored (${why}); dropped`);
      return;
    }
    await this.writer.record(event.data, em);
  }
}
