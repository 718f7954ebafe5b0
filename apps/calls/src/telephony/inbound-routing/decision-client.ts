import { Injectable, OnModuleDestroy } from '@nestjs/common';
import {
  INBOUND_ROUTE_HEADERS,
  InboundRouteAction,
  InboundRouteRequestBody,
  inboundRouteSignature,
} from '@vap/api';
import {
  CONNECT_FAILED_MESSAGE,
  connectionFailureMessage,
  FetchTimeoutError,
  isConnectFailure,
  PrivateNetworkGuard,
  privateNetworksAllowed,
  PublicHttpClient,
  ResponseTooLargeError,
  UnsupportedUrlError,
} from '@vap/egress';
import {
  INTEGRATION_LOG_EXCERPT_CHARS,
  IntegrationOutcome,
  maskedHeaders,
  outcomeOfStatus,
} from '@vap/messages';
import { DecisionAnswer, readDecisionAnswer } from './decision-answer';

/** What was sent and what came back, for the partner's integration log (secrets masked). */
export interface DecisionExchange {
  url: string;
  startedAt: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status: number | null;
  /** An excerpt; null when no answer came. */
  responseBody: string | null;
  outcome: IntegrationOutcome;
  latencyMs: number;
}

export type DecisionOutcome = (
  | { ok: true; answer: DecisionAnswer; status: number; latencyMs: number }
  | { ok: false; reason: string; status: number | null; latencyMs: number | null }
) & { exchange: DecisionExchange };

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends inbound.route to a policy's decision URL (HTTPS, through the private-network guard) and reads the
 * answer. Every way it can fail (unreachable, timeout, non-2xx, invalid answer) is an outcome, not an error.
 */
@Injectable()
export class DecisionClient implements OnModuleDestroy {
  private readonly http = new PublicHttpClient(
    new PrivateNetworkGuard({ allowPrivateNetworks: privateNetworksAllowed() }),
  );

  async ask(
    url: string,
    body: InboundRouteRequestBody,
    secret: string | null,
    timeoutMs: number,
    allowed: readonly InboundRouteAction[],
  ): Promise<DecisionOutcome> {
    const raw = JSON.stringify(body);
    const timestamp = String(Date.now());
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [INBOUND_ROUTE_HEADERS.event]: 'inbound.route',
      [INBOUND_ROUTE_HEADERS.timestamp]: timestamp,
    };
    if (secret) headers[INBOUND_ROUTE_HEADERS.signature] = inboundRouteSignature(secret, timestamp, raw);
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const exchange = (
      outcome: IntegrationOutcome,
      status: number | null,
      responseBody: string | null,
      latencyMs: number,
    ): DecisionExchange => ({
      url,
      startedAt,
      requestHeaders: maskedHeaders(headers),
      requestBody: raw,
      status,
      responseBody: responseBody === null ? null : responseBody.slice(0, INTEGRATION_LOG_EXCERPT_CHARS),
      outcome,
      latencyMs,
    });
    let status: number;
    let answer: string;
    try {
      if (!url.startsWith('https://')) throw new UnsupportedUrlError('decision URL is not HTTPS');
      const res = await this.http.post(url, raw, { timeoutMs, maxBytes: MAX_ANSWER_BYTES, headers });
      status = res.status;
      answer = res.body.toString('utf8');
    } catch (err) {
      const latencyMs = Math.round(performance.now() - started);
      const failed = (reason: string, outcome: IntegrationOutcome): DecisionOutcome => ({
        ok: false,
        reason,
        status: null,
        latencyMs,
        exchange: exchange(outcome, null, null, latencyMs),
      });
      // Before a connection exists every failure reads the same, so the decision log maps no internal names
      // or open ports.
      if (isConnectFailure(err)) return failed(`request failed: ${CONNECT_FAILED_MESSAGE}`, 'refused');
      if (err instanceof FetchTimeoutError) return failed(`timeout after ${timeoutMs} ms`, 'timeout');
      // A body over the limit came with a status, but an answer that cannot be read is the partner's error.
      if (err instanceof ResponseTooLargeError)
        return failed(`request failed: ${(err as Error).message}`, 'http_error');
      return failed(`request failed: ${connectionFailureMessage(err)}`, 'refused');
    }
    const latencyMs = Math.round(performance.now() - started);
    const log = exchange(outcomeOfStatus(status), status, answer, latencyMs);
    if (status < 200 || status > 299)
      return { ok: false, reason: `decision URL answered HTTP ${status}`, status, latencyMs, exchange: log };
    const read = readDecisionAnswer(answer, allowed);
    if ('invalid' in read)
      return { ok: false, reason: `invalid answer: ${read.invalid}`, status, latencyMs, exchange: log };
    return { ok: true, answer: read.answer, status, latencyMs, exchange: log };
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}
