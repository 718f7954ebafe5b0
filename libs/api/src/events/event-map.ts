import type { DomainEvents, EventSubject } from '@vap/messages';
import type { PartnerDto } from '../accounts';
import type { AgentChangedEvent, AgentDeletedEvent } from '../agents';
import type { ContactPolicySettingsDto } from '../contact-policy';
import type { CustomerDto } from '../customers';
import type { DocumentDto } from '../documents';
import type { MessageDto } from '../messages';
import type { InboundRouteDecisionDto, PhoneNumberDto } from '../telephony';
import type { AgentWebhookFlagChangedEvent } from '../webhooks';
import type {
  AgentDocumentIndexedEvent,
  AgentDocumentLinkEvent,
  CustomerConnectionUpdatedEvent,
  PhoneNumberDeletedEvent,
  TelephonyConnectionUpdatedEvent,
} from './event-payloads';

/** The events whose data are a public record or its change, added to @vap/messages' EventMap. */
declare module '@vap/messages' {
  interface EventMap {
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
    'events.telephony_connection.updated': TelephonyConnectionUpdatedEvent;
    'events.phone_number.imported': PhoneNumberDto;
    'events.phone_number.updated': PhoneNumberDto;
    'events.phone_number.deleted': PhoneNumberDeletedEvent;
    'events.inbound_route.decided': InboundRouteDecisionDto;
    'events.agent_webhooks.flag_changed': AgentWebhookFlagChangedEvent;
    'events.contact_policy.settings_updated': ContactPolicySettingsDto;
    'events.message.status_updated': MessageDto;
    'events.message.received': MessageDto;
    'events.customer_connection.updated': CustomerConnectionUpdatedEvent;
  }
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compiles only while DomainEvents and EventMap list the same subjects. */
export type EventMapMatchesDomainEvents = Assert<
  Same<(typeof DomainEvents)[keyof typeof DomainEvents], EventSubject>
>;
