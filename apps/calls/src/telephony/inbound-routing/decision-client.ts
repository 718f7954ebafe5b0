import { Injectable, OnModuleDestroy } from '@nestjs/common';
import {
  INBOUND_ROUTE_HEADERS,
  InboundRouteAction,
  InboundRouteRequestBody,
  inboundRouteSignature,
} from '@vap/api';
import {
  FetchTimeoutError,
  PrivateNetworkError,
  PrivateNetworkGuard,
  privateNetworksAllowed,
  PublicHttpClient,
} from '@vap/egress';
import { HookExchange, maskHeaders } from '../../integration-log/integration-log-entry';
import { DecisionAnswer, readDecisionAnswer } from './decision-answer';

export type DecisionOutcome = (
  | { ok: true; answer: DecisionAnswer; status: number; latencyMs: number }
  | { ok: false; reason: string; status: number | null; latencyMs: number | null }
) & {
  /** The request as the integration log keeps it. */
  exchange: HookExchange;
};

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
    const startedAt = new Date();
    const started = performance.now();
    const exchange = (part: Pick<HookExchange, 'outcome' | 'status' | 'body' | 'error'>): HookExchange => ({
      ...part,
      latencyMs: Math.round(performance.now() - started),
      startedAt,
      requestHeaders: maskHeaders(headers),
      requestBody: raw,
    });
    let status: number;
    let answer: string;
    try {
      if (!url.startsWith('https://')) throw new Error('decision URL is not HTTPS');
      const res = await this.http.post(url, raw, { timeoutMs, maxBytes: MAX_ANSWER_BYTES, headers });
      status = res.status;
      answer = res.body.toString('utf8');
    } catch (err) {
      const latencyMs = Math.round(performance.now() - started);
      if (err instanceof FetchTimeoutError) {
        const reason = `timeout after ${timeoutMs} ms`;
        const logged = exchange({ outcome: 'timeout', status: null, body: null, error: reason });
        return { ok: false, reason, status: null, latencyMs, exchange: logged };
      }
      const reason = `request failed: ${(err as Error).message}`;
      const cause = (err as { cause?: unknown }).cause;
      const refused = err instanceof PrivateNetworkError || cause instanceof PrivateNetworkError;
      const logged = exchange({
        outcome: refused ? 'refused' : 'http_error',
        status: null,
        body: null,
        error: reason,
      });
      return { ok: false, reason, status: null, latencyMs, exchange: logged };
    }
    const latencyMs = Math.round(performance.now() - started);
    if (status < 200 || status > 299) {
      const reason = `decision URL answered HTTP ${status}`;
      const logged = exchange({ outcome: 'http_error', status, body: answer, error: reason });
      return { ok: false, reason, status, latencyMs, exchange: logged };
    }
    const read = readDecisionAnswer(answer, allowed);
    if ('invalid' in read) {
      const reason = `invalid answer: ${read.invalid}`;
      const logged = exchange({ outcome: 'success', status, body: answer, error: reason });
      return { ok: false, reason, status, latencyMs, exchange: logged };
    }
    const logged = exchange({ outcome: 'success', status, body: answer, error: null });
    return { ok: true, answer: read.answer, status, latencyMs, exchange: logged };
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}
