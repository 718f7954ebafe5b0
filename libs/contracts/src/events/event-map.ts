import type { PartnerDto } from '../accounts';
import type { AgentChangedEvent, AgentDeletedEvent } from '../agents';
import type { CallStatusUpdatedData, CallTransferredData, SessionCompletedData } from '../calls';
import type { ContactPolicySettingsDto } from '../contact-policy';
import type { CustomerDto } from '../customers';
import type { DocumentDto } from '../documents';
import { DomainEvents } from '../messaging/subjects';
import type { InboundRouteDecisionDto, PhoneNumberDto } from '../telephony';
import type { AgentWebhookFlagChangedEvent } from '../webhooks';
import type { CampaignStatusUpdatedData } from './campaign-status-updated';
import type {
  AgentDocumentIndexedEvent,
  AgentDocumentLinkEvent,
  PhoneNumberDeletedEvent,
  TelephonyConnectionUpdatedEvent,
} from './event-payloads';

/**
 * Every domain event subject with the type of its data: OutboxService.record takes exactly this payload
 * for the subject, and an @OnDomainEvent handler of the subject receives it.
 */
export interface EventMap {
  'events.partner.created': PartnerDto;
  'events.partner.updated': PartnerDto;
  'events.customer.created': CustomerDto;
  'events.customer.updated': CustomerDto;
  'events.agent.created': AgentChangedEvent;
  'events.agent.updated': AgentChangedEvent;
  'events.agent.deleted': AgentDeletedEvent;
  'events.document.created': DocumentDto;
  'events.document.ready': DocumentDto;
  'events.document.deleted': DocumentDto;
  'events.agent_document.linked': AgentDocumentLinkEvent;
  'events.agent_document.unlinked': AgentDocumentLinkEvent;
  'events.agent_document.indexed': AgentDocumentIndexedEvent;
  'events.call.status_updated': CallStatusUpdatedData;
  'events.session.completed': SessionCompletedData;
  'events.call.transferred': CallTransferredData;
  'events.telephony_connection.updated': TelephonyConnectionUpdatedEvent;
  'events.phone_number.imported': PhoneNumberDto;
  'events.phone_number.updated': PhoneNumberDto;
  'events.phone_number.deleted': PhoneNumberDeletedEvent;
  'events.inbound_route.decided': InboundRouteDecisionDto;
  'events.campaign.status_updated': CampaignStatusUpdatedData;
  'events.agent_webhooks.flag_changed': AgentWebhookFlagChangedEvent;
  'events.contact_policy.settings_updated': ContactPolicySettingsDto;
}

export type EventSubject = keyof EventMap & string;
export type EventPayload<S extends EventSubject> = EventMap[S];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compiles only while DomainEvents and EventMap list the same subjects. */
export type EventMapMatchesDomainEvents = Assert<
  Same<(typeof DomainEvents)[keyof typeof DomainEvents], EventSubject>
>;
