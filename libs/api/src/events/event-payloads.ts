import type { KbIndexStatus } from '@vap/messages';
import type { CredentialProvider } from '../telephony';

/** data of events.agent_document.linked and .unlinked: which document joined or left which agent. */
export interface AgentDocumentLinkEvent {
  agent_id: string;
  document_id: string;
}

/** data of events.agent_document.indexed: the link's indexing ended (indexed or failed). */
export interface AgentDocumentIndexedEvent {
  agent_id: string;
  document_id: string;
  index_status: KbIndexStatus;
  index_error: string | null;
  chunk_count: number;
}

/** data of events.telephony_connection.updated: carrier credentials were saved (never the secret). */
export interface TelephonyConnectionUpdatedEvent {
  connection_id: string;
  provider: CredentialProvider;
  account_id_masked: string;
  from_number: string;
}

/**
 * What moved a customer's connection: the link completed, the refresh token refused, a DELETE, or the connector's
 * credential endpoints changed (connector_changed: the tokens were dropped, the customer must consent again).
 */
export const CUSTOMER_CONNECTION_EVENT_REASONS = [
  'link_completed',
  'refresh_refused',
  'deleted',
  'connector_changed',
] as const;
export type CustomerConnectionEventReason = (typeof CUSTOMER_CONNECTION_EVENT_REASONS)[number];

/**
 * data of events.customer_connection.updated (webhook customer_connection.updated): a customer's connection
 * became connected, revoked, disconnected or reconnect_required. Never a token, key or secret.
 */
export interface CustomerConnectionUpdatedEvent {
  customer_id: string;
  connection_id: string;
  connector_id: string;
  connector_name: string;
  status: 'connected' | 'revoked' | 'disconnected' | 'reconnect_required';
  reason: CustomerConnectionEventReason;
  occurred_at: string;
}

/** data of events.phone_number.deleted. */
export interface PhoneNumberDeletedEvent {
  id: string;
  number: string;
}
