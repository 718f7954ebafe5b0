// One request the platform made to a partner's systems, as its integration log keeps it. The agents service
// owns the log (it makes most of these requests: custom functions, their tests, knowledge-base page fetches);
// other services record theirs through the outbox as events.integration.request_logged, which it stores.

/** What the request was for. */
export type IntegrationRequestKind =
  | 'custom_function'
  | 'custom_function_test'
  | 'pre_call_hook'
  | 'post_call_hook'
  | 'inbound_decision'
  | 'knowledge_fetch';

/** How it ended: a 2xx, another status, no answer in time, an address refused or a failed connection. */
export type IntegrationOutcome = 'success' | 'http_error' | 'timeout' | 'refused';

/** Request and answer bodies are kept as excerpts of at most this many characters. */
export const INTEGRATION_LOG_EXCERPT_CHARS = 4096;

/** A header value the log never shows (signatures, credentials, the partner's static headers). */
export const MASKED_HEADER_VALUE = '********';

export interface IntegrationLogEntry {
  /** Made up by whoever made the request (a UUID), so that a retried event is stored once. */
  id: string;
  partnerId: string;
  kind: IntegrationRequestKind;
  callId: string | null;
  browserSessionId: string | null;
  agentId: string | null;
  functionId: string | null;
  hookId: string | null;
  method: string;
  url: string;
  /** Lower-case names; every secret value already MASKED_HEADER_VALUE. */
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  status: number | null;
  responseBody: string | null;
  outcome: IntegrationOutcome;
  error: string | null;
  latencyMs: number;
  /** Requests sent (retries included). */
  attempts: number;
  /** ISO 8601, when the first attempt left. */
  startedAt: string;
}
