import { DomainEvents } from '@vap/messages';

export interface WebhookEventType {
  /** The name partners see in payloads (`event`) and put in endpoint allowlists. */
  type: string;
  /** The domain event that produces it, or null when it is not fanned out from the event stream. */
  subject: string | null;
  description: string;
}

/**
 * The event types partners can receive (the contract's five, campaign.status.updated, the messaging events and customer_connection.updated). `inbound.route`
 * goes to a routing policy's decision URL and `webhook.test` only to the endpoint tested, so neither comes
 * from the stream; both are still valid allowlist entries.
 */
export const WEBHOOK_EVENT_CATALOG: readonly WebhookEventType[] = [
  {
    type: 'call.status.updated',
    subject: DomainEvents.callStatusUpdated,
    description: 'A phone call moved to a new meaningful status.',
  },
  {
    type: 'session.completed',
    subject: DomainEvents.sessionCompleted,
    description: 'Final session data after post-call processing; also terminal session failures.',
  },
  {
    type: 'call.transferred',
    subject: DomainEvents.callTransferred,
    description: 'A call was transferred to a human.',
  },
  {
    type: 'campaign.status.updated',
    subject: DomainEvents.campaignStatusUpdated,
    description: 'A campaign moved to a new status (started, paused, resumed, finished).',
  },
  {
    type: 'message.status.updated',
    subject: DomainEvents.messageStatusUpdated,
    description: 'An outbound SMS moved to a new status (sent, delivered, undelivered, failed).',
  },
  {
    type: 'message.received',
    subject: DomainEvents.messageReceived,
    description: "An SMS arrived on one of the account's numbers.",
  },
  {
    type: 'customer_connection.updated',
    subject: DomainEvents.customerConnectionUpdated,
    description:
      "A customer's connection became connected (link completed), revoked (refresh token refused), disconnected (deleted) " +
      'or reconnect_required (the connector’s credential endpoints changed: its tokens were dropped).',
  },
  { type: 'inbound.route', subject: null, description: 'Pre-answer routing request for an inbound call.' },
  { type: 'webhook.test', subject: null, description: 'Sent only by the test operation.' },
];

/** Every event name an endpoint allowlist accepts, in catalog order. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = WEBHOOK_EVENT_CATALOG.map((e) => e.type);

/** Removed from the catalog and refused in allowlists with a message that says so. */
export const REMOVED_WEBHOOK_EVENT_TYPES: readonly string[] = ['session.failed'];

/** The catalog entries fanned out from domain events. */
export const STREAMED_WEBHOOK_EVENTS = WEBHOOK_EVENT_CATALOG.filter(
  (e): e is WebhookEventType & { subject: string } => e.subject !== null,
);
