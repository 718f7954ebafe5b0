import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LIFECYCLE_HOOK_HEADERS, LIFECYCLE_HOOK_LIMITS, lifecycleHookSignature } from '@vap/api';
import {
  FetchTimeoutError,
  PrivateNetworkError,
  PrivateNetworkGuard,
  privateNetworksAllowed,
  PublicHttpClient,
  UnsupportedUrlError,
} from '@vap/egress';
import {
  INTEGRATION_LOG_EXCERPT_CHARS,
  IntegrationLogEntry,
  IntegrationOutcome,
  IntegrationRequestKind,
  MASKED_HEADER_VALUE,
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
  requestHeaders: Record<string, string>;
  requestBody: string;
}

export interface HookRequest {
  url: string;
  secret: string;
  /** X-Vap-Event. */
  event: string;
  hookId: string;
  body: unknown;
  timeoutMs: number;
}

/** Who the integration log entry of an exchange belongs to. */
export interface HookLogRef {
  partnerId: string;
  kind: IntegrationRequestKind;
  hookId: string | null;
  callId: string | null;
  agentId: string | null;
  attempts: number;
}

const SECRET_HEADERS = new Set([LIFECYCLE_HOOK_HEADERS.signature.toLowerCase()]);

/**
 * Sends signed requests to partners' hook URLs: HTTPS only, through the private-network guard (checked
 * at connect time), bounded in time and answer size, no redirects (a signed request goes where it was
 * configured to, or nowhere). Every way a request can fail is an outcome, never an exception.
 */
@Injectable()
export class HookClient implements OnModuleDestroy {
  private readonly http = new PublicHttpClient(
    new PrivateNetworkGuard({ allowPrivateNetworks: privateNetworksAllowed() }),
  );

  async send(request: HookRequest): Promise<HookExchange> {
    const raw = JSON.stringify(request.body);
    const timestamp = String(Date.now());
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [LIFECYCLE_HOOK_HEADERS.event]: request.event,
      [LIFECYCLE_HOOK_HEADERS.hookId]: request.hookId,
      [LIFECYCLE_HOOK_HEADERS.timestamp]: timestamp,
      [LIFECYCLE_HOOK_HEADERS.signature]: lifecycleHookSignature(request.secret, timestamp, raw),
    };
    const startedAt = new Date();
    const started = performance.now();
    const done = (part: Pick<HookExchange, 'outcome' | 'status' | 'body' | 'error'>): HookExchange => ({
      ...part,
      latencyMs: Math.round(performance.now() - started),
      startedAt,
      requestHeaders: maskHeaders(headers),
      requestBody: raw,
    });
    try {
      if (!request.url.startsWith('https://')) throw new UnsupportedUrlError('the hook URL is not HTTPS');
      const res = await this.http.post(request.url, raw, {
        timeoutMs: request.timeoutMs,
        maxBytes: LIFECYCLE_HOOK_LIMITS.answerMaxBytes,
        maxRedirects: 0,
        headers,
      });
      const body = res.body.toString('utf8');
      if (res.status >= 200 && res.status <= 299)
        return done({ outcome: 'success', status: res.status, body, error: null });
      return done({ outcome: 'http_error', status: res.status, body, error: `HTTP ${res.status}` });
    } catch (err) {
      if (err instanceof FetchTimeoutError)
        return done({
          outcome: 'timeout',
          status: null,
          body: null,
          error: `no answer within ${request.timeoutMs} ms`,
        });
      const cause = (err as { cause?: unknown }).cause;
      const refused =
        err instanceof PrivateNetworkError ||
        cause instanceof PrivateNetworkError ||
        err instanceof UnsupportedUrlError;
      return done({
        outcome: refused ? 'refused' : 'http_error',
        status: null,
        body: null,
        error: `request failed: ${(err as Error).message}`.slice(0, 500),
      });
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}

/** The integration log entry of one exchange (its last attempt, with the count of attempts). */
export function integrationLogEntry(
  ref: HookLogRef,
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

/** Lower-case names; the signature (a credential derived from the secret) masked. */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[lower] = SECRET_HEADERS.has(lower) ? MASKED_HEADER_VALUE : value;
  }
  return out;
}

export function excerpt(text: string | null): string | null {
  if (text === null) return null;
  return text.length > INTEGRATION_LOG_EXCERPT_CHARS ? text.slice(0, INTEGRATION_LOG_EXCERPT_CHARS) : text;
}
