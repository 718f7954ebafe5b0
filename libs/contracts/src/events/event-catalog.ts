import { DomainEvents } from '../messaging/subjects';

export interface WebhookEventType {
  /** The name partners see in payloads (`event`) and put in endpoint allowlists. */
  type: string;
  /** The domain event that produces it, or null when it is not fanned out from the event stream. */
  subject: string | null;
  description: string;
}

/**
 * The event types partners can receive. `inbound.route` goes to a routing policy's decision URL and
 * `webhook.test` only to the endpoint tested, so neither comes from the stream.
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
  { type: 'inbound.route', subject: null, description: 'Pre-answer routing request for an inbound call.' },
  { type: 'webhook.test', subject: null, description: 'Sent only by the test operation.' },
];
