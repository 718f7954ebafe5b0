import { randomUUID } from 'node:crypto';
import {
  INTEGRATION_LOG_EXCERPT_CHARS,
  IntegrationLogEntry,
  IntegrationOutcome,
  IntegrationRequestKind,
} from '@vap/messages';

/** One request to a partner's URL: what was sent, what came back, and how it ended. */
export interface HookExchange {
  outcome: IntegrationOutcome;
  /** HTTP status of the answer; null without one. */
  status: number | null;
  /** The answer's text (at most the bound it was read with); null without an answer. */
  body: string | null;
  /** Why it was not a 2xx, in words; null on success. */
  error: string | null;
  latencyMs: number;
  startedAt: Date;
  /** As sent, secrets already masked (maskedHeaders). */
  requestHeaders: Record<string, string>;
  requestBody: string;
}

/** Who the integration log entry of an exchange belongs to. */
export interface IntegrationLogRef {
  partnerId: string;
  kind: IntegrationRequestKind;
  hookId: string | null;
  callId: string | null;
  agentId: string | null;
  attempts: number;
}

/**
 * The integration log entry of one exchange (its last attempt, with the count of attempts), recorded by the
 * caller through the outbox as events.integration.request_logged. `error` overrides the exchange's when
 * the answer came but could not be used (an invalid answer).
 */
export function integrationLogEntry(
  ref: IntegrationLogRef,
  url: string,
  exchange: HookExchange,
  error: string | null = exchange.error,
): IntegrationLogEntry {
  return {
    id: randomUUID(),
    partnerId: ref.partnerId,
    kind: ref.kind,
    callId: ref.callId,
    browserSessionId: null,
    agentId: ref.agentId,
    functionId: null,
    hookId: ref.hookId,
    method: 'POST',
    url,
    requestHeaders: exchange.requestHeaders,
    requestBody: excerpt(exchange.requestBody),
    status: exchange.status,
    responseBody: excerpt(exchange.body),
    outcome: exchange.outcome,
    error,
    latencyMs: exchange.latencyMs,
    attempts: ref.attempts,
    startedAt: exchange.startedAt.toISOString(),
  };
}

export function excerpt(text: string | null): string | null {
  if (text === null) return null;
  return text.length > INTEGRATION_LOG_EXCERPT_CHARS ? text.slice(0, INTEGRATION_LOG_EXCERPT_CHARS) : text;
}
