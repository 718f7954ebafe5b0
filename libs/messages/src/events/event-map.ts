import type { CallStatusUpdatedData, CallTransferredData, SessionCompletedData } from '../calls/call-events';
import type { IntegrationLogEntry } from '../integrations/integration-log';
import type { CampaignStatusUpdatedData } from './campaign-status-updated';

/**
 * Every domain event subject with the type of its data: OutboxService.record takes exactly this payload
 * for the subject, and an @OnDomainEvent handler of the subject receives it.
 *
 * Here are the events whose data are internal messages; the events whose data are a public record (a DTO
 * of @vap/api) are added to this interface by @vap/api.
 */
export interface EventMap {
  'events.call.status_updated': CallStatusUpdatedData;
  'events.session.completed': SessionCompletedData;
  'events.call.transferred': CallTransferredData;
  'events.campaign.status_updated': CampaignStatusUpdatedData;
  'events.integration.request_logged': IntegrationLogEntry;
}

export type EventSubject = keyof EventMap & string;
export type EventPayload<S extends EventSubject> = EventMap[S];
