// One request the platform made to a partner's systems, as its integration log keeps it. The agents service
// owns the log (it makes most of these requests: custom functions, their tests, knowledge-base page fetches);
// other services record theirs through the outbox as events.integration.request_logged, which it stores.

/** What the request was for. */
export const INTEGRATION_REQUEST_KINDS = [
  'custom_function',
  'custom_function_test',
  'pre_call_hook',
  'post_call_hook',
  'inbound_decision',
  'knowledge_fetch',
] as const;
export type IntegrationRequestKind = (typeof INTEGRATION_REQUEST_KINDS)[number];

/** How it ended: a 2xx, another status, no answer in time, an address refused or a failed connection. */
export const INTEGRATION_OUTCOMES = ['success', 'http_error', 'timeout', 'refused'] as const;
export type IntegrationOutcome = (typeof INTEGRATION_OUTCOMES)[number];

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

/**
 * Header names whose values the log never shows, whatever the request: credentials, cookies and the
 * platform's signature. Names containing one of SECRET_HEADER_PARTS are masked too.
 */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-vap-signature']);
const SECRET_HEADER_PARTS = ['secret', 'token', 'signature', 'password', 'api-key', 'apikey', 'auth'];

/**
 * The request's headers as the log keeps them: lower-case names, and MASKED_HEADER_VALUE for every value
 * that is or may be a secret (the names above, and `alsoMasked`: say, a partner's static headers, whose
 * meaning the platform cannot know).
 */
export function maskedHeaders(
  headers: Readonly<Record<string, string>>,
  alsoMasked: readonly string[] = [],
): Record<string, string> {
  const extra = new Set(alsoMasked.map((name) => name.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    const secret =
      SECRET_HEADERS.has(name) || extra.has(name) || SECRET_HEADER_PARTS.some((part) => name.includes(part));
    out[name] = secret ? MASKED_HEADER_VALUE : value;
  }
  return out;
}

/** The outcome of a request that got an HTTP answer. */
export function outcomeOfStatus(status: number): IntegrationOutcome {
  return status >= 200 && status <= 299 ? 'success' : 'http_error';
}
