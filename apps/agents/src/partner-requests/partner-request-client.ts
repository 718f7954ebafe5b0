import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CONNECT_FAILED_MESSAGE,
  connectionFailureMessage,
  FetchTimeoutError,
  isConnectFailure,
  PARTNER_REQUEST_HEADERS,
  partnerRequestSignature,
  PrivateNetworkGuard,
  PublicHttpClient,
  UnsupportedUrlError,
} from '@vap/egress';
import {
  IntegrationOutcome,
  IntegrationRequestKind,
  maskedHeaders,
  PartnerRequestCallContext,
  IntegrationLogId,
} from '@vap/messages';
import { KnowledgeConfig } from '../config/knowledge.config';
import { IntegrationLogWriter } from '../integration-logs/integration-log.writer';

/** Methods a retry cannot repeat the effect of. */
const IDEMPOTENT_METHODS = new Set(['GET', 'PUT', 'DELETE']);
/** Answers that say the partner's side was briefly unavailable. */
const RETRY_STATUSES = new Set([502, 503, 504]);
/** Pause before the one retry, and the time that must be left of the timeout for it to be made. */
export const RETRY_DELAY_MS = 250;
export const RETRY_MIN_REMAINING_MS = 1000;
/** Longest URL sent: GET and DELETE carry the payload in it. */
export const MAX_URL_CHARS = 16_384;
const USER_AGENT = 'Vap-Partner-Requests/1';

export interface PartnerRequest {
  partnerId: string;
  kind: IntegrationRequestKind;
  functionId: string | null;
  hookId: string | null;
  /** The call the request is made for; null outside a call (tests). */
  context: PartnerRequestCallContext | null;
  method: string;
  url: string;
  /** The JSON document sent: the body of POST/PUT/PATCH, the `payload` query parameter of GET/DELETE. */
  payload: string;
  signingSecret: string;
  /** The partner's static headers, sent as given and masked in the log. */
  staticHeaders: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  /** A query parameter that is a secret (a customer's API key): sent, never logged. */
  secretQuery?: [string, string] | null;
}

export interface PartnerResponse {
  outcome: IntegrationOutcome;
  status: number | null;
  /** The answer's body as text, cut at maxResponseBytes; '' when none came. */
  body: string;
  truncated: boolean;
  /** Media type of the answer, lower case, without parameters. */
  contentType: string;
  latencyMs: number;
  attempts: number;
  error: string | null;
  logId: string;
}

type Attempt =
  | { kind: 'answer'; status: number; body: Buffer; truncated: boolean; contentType: string }
  | { kind: 'failed'; outcome: 'timeout' | 'refused'; error: string; retryable: boolean };

function failureOf(err: unknown, timeoutMs: number): Attempt {
  // Before a connection exists, every failure reads the same (a refused address, a name that does not resolve, a
  // refused or timed-out connection), and is retried alike: no answer tells internal names or open ports apart.
  if (isConnectFailure(err))
    return { kind: 'failed', outcome: 'refused', error: CONNECT_FAILED_MESSAGE, retryable: true };
  if (err instanceof FetchTimeoutError)
    return {
      kind: 'failed',
      outcome: 'timeout',
      error: `no answer within ${timeoutMs} ms`,
      retryable: false,
    };
  if (err instanceof UnsupportedUrlError)
    return { kind: 'failed', outcome: 'refused', error: err.message, retryable: false };
  return { kind: 'failed', outcome: 'refused', error: connectionFailureMessage(err), retryable: true };
}

/**
 * The one way the agents service calls partners' systems: signs each attempt (X-Vap-Timestamp,
 * X-Vap-Signature), adds the partner's static headers, sends through the private-network guard (checked at
 * connect time) within the timeout, reads a bounded answer, retries once where that is safe, and writes
 * one integration log entry per request with every secret header masked.
 *
 * Retry rule: only GET, PUT and DELETE, only after a failed connection or a 502/503/504, once, after
 * RETRY_DELAY_MS, and only when at least RETRY_MIN_REMAINING_MS of the timeout is left; both attempts
 * share the timeout.
 */
@Injectable()
export class PartnerRequestClient implements OnModuleDestroy {
  private readonly log = new Logger(PartnerRequestClient.name);
  private readonly http: PublicHttpClient;

  constructor(
    config: KnowledgeConfig,
    private readonly logs: IntegrationLogWriter,
  ) {
    // The platform-wide development/test switch (declared with the knowledge settings, which share it); never
    // KB_ALLOW_PRIVATE_NETWORKS, which is for web-link documents only.
    this.http = new PublicHttpClient(
      new PrivateNetworkGuard({ allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS }),
    );
  }

  /** Log rows of in-call requests still being written (record() never rejects). */
  private readonly pendingLogs = new Set<Promise<void>>();

  async send(req: PartnerRequest): Promise<PartnerResponse> {
    const logId = randomUUID();
    const startedAt = new Date();
    const started = performance.now();
    const method = req.method.toUpperCase();
    const hasBody = method !== 'GET' && method !== 'DELETE';
    const url = hasBody ? req.url : withPayload(req.url, req.payload);
    const sentUrl = req.secretQuery ? withParameter(url, req.secretQuery) : url;
    let attempts = 0;
    let last: Attempt;
    let sentHeaders: Record<string, string> = {};
    if (sentUrl.length > MAX_URL_CHARS) {
      last = {
        kind: 'failed',
        outcome: 'refused',
        error: `the request URL would be longer than ${MAX_URL_CHARS} characters; use POST for larger arguments`,
        retryable: false,
      };
    } else {
      for (;;) {
        const remaining = req.timeoutMs - (performance.now() - started);
        attempts += 1;
        sentHeaders = this.headersFor(req, logId, hasBody);
        last = await this.attempt(
          method,
          sentUrl,
          hasBody ? req.payload : undefined,
          sentHeaders,
          remaining,
          req,
        );
        const retryable =
          IDEMPOTENT_METHODS.has(method) &&
          attempts === 1 &&
          (last.kind === 'answer' ? RETRY_STATUSES.has(last.status) : last.retryable);
        const left = req.timeoutMs - (performance.now() - started) - RETRY_DELAY_MS;
        if (!retryable || left < RETRY_MIN_REMAINING_MS) break;
        await sleep(RETRY_DELAY_MS);
      }
    }
    const latencyMs = attempts === 0 ? 0 : Math.round(performance.now() - started);
    const response: PartnerResponse =
      last.kind === 'answer'
        ? {
            outcome: last.status >= 200 && last.status <= 299 ? 'success' : 'http_error',
            status: last.status,
            body: last.body.toString('utf8'),
            truncated: last.truncated,
            contentType: last.contentType,
            latencyMs,
            attempts,
            error:
              last.status >= 200 && last.status <= 299 ? null : `the server answered HTTP ${last.status}`,
            logId,
          }
        : {
            outcome: last.outcome,
            status: null,
            body: '',
            truncated: false,
            contentType: '',
            latencyMs,
            attempts,
            error: last.error,
            logId,
          };
    const logged = this.record(req, response, method, url, hasBody, sentHeaders, startedAt);
    if (req.kind === 'custom_function') {
      // A conversation is waiting for this answer: the log row follows it rather than delaying it (the call's
      // tool_calls name the row; shutdown waits for rows still being written).
      this.pendingLogs.add(logged);
      void logged.finally(() => this.pendingLogs.delete(logged));
    } else {
      await logged;
    }
    return response;
  }

  private headersFor(req: PartnerRequest, logId: string, hasBody: boolean): Record<string, string> {
    const timestamp = String(Date.now());
    return {
      ...req.staticHeaders,
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      'user-agent': USER_AGENT,
      [PARTNER_REQUEST_HEADERS.requestId]: IntegrationLogId.format(logId),
      [PARTNER_REQUEST_HEADERS.timestamp]: timestamp,
      [PARTNER_REQUEST_HEADERS.signature]: partnerRequestSignature(req.signingSecret, timestamp, req.payload),
    };
  }

  private async attempt(
    method: string,
    url: string,
    body: string | undefined,
    headers: Record<string, string>,
    remainingMs: number,
    req: PartnerRequest,
  ): Promise<Attempt> {
    if (remainingMs <= 0)
      return {
        kind: 'failed',
        outcome: 'timeout',
        error: `no answer within ${req.timeoutMs} ms`,
        retryable: false,
      };
    try {
      const res = await this.http.send(method, url, {
        timeoutMs: Math.max(1, Math.floor(remainingMs)),
        maxBytes: req.maxResponseBytes,
        truncate: true,
        headers,
        body,
      });
      return {
        kind: 'answer',
        status: res.status,
        body: res.body,
        truncated: res.truncated,
        contentType: res.contentType,
      };
    } catch (err) {
      // The guard has logged a refusal with the address; the partner reads only that it was refused.
      return failureOf(err, req.timeoutMs);
    }
  }

  private async record(
    req: PartnerRequest,
    res: PartnerResponse,
    method: string,
    url: string,
    hasBody: boolean,
    sent: Record<string, string>,
    startedAt: Date,
  ): Promise<void> {
    // The partner's static headers are secrets the platform cannot tell from others: all masked.
    const requestHeaders = maskedHeaders(sent, Object.keys(req.staticHeaders));
    try {
      await this.logs.record({
        id: res.logId,
        partnerId: req.partnerId,
        kind: req.kind,
        callId: req.context?.callId ?? null,
        browserSessionId: req.context?.browserSessionId ?? null,
        agentId: req.context?.agentId ?? null,
        functionId: req.functionId,
        hookId: req.hookId,
        method,
        // The payload of GET/DELETE is the request body below, not repeated in the URL.
        url: hasBody ? url : req.url,
        requestHeaders,
        requestBody: req.payload,
        status: res.status,
        responseBody: res.body === '' && res.status === null ? null : res.body,
        outcome: res.outcome,
        error: res.error,
        latencyMs: res.latencyMs,
        attempts: res.attempts,
        startedAt: startedAt.toISOString(),
      });
    } catch (err) {
      // The partner's request was made; a lost log line must not turn its answer into a failure.
      this.log.error(`integration log entry ${res.logId} not stored: ${(err as Error).message}`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.pendingLogs);
    await this.http.close();
  }
}

/** The URL with one more query parameter (a same-named one replaced). */
export function withParameter(url: string, [name, value]: [string, string]): string {
  const target = new URL(url);
  target.searchParams.set(name, value);
  return target.toString();
}

/** The URL with the JSON payload as its `payload` query parameter (other parameters kept). */
export function withPayload(url: string, payload: string): string {
  const target = new URL(url);
  target.searchParams.set('payload', payload);
  return target.toString();
}
