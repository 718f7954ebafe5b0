import { Injectable, OnModuleDestroy } from '@nestjs/common';
import {
  INBOUND_ROUTE_HEADERS,
  InboundRouteAction,
  InboundRouteRequestBody,
  inboundRouteSignature,
} from '@vap/api';
import {
  FetchTimeoutError,
  PrivateNetworkGuard,
  privateNetworksAllowed,
  PublicHttpClient,
} from '@vap/egress';
import { DecisionAnswer, readDecisionAnswer } from './decision-answer';

export type DecisionOutcome =
  | { ok: true; answer: DecisionAnswer; status: number; latencyMs: number }
  | { ok: false; reason: string; status: number | null; latencyMs: number | null };

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
    const started = performance.now();
    let status: number;
    let answer: string;
    try {
      if (!url.startsWith('https://')) throw new Error('decision URL is not HTTPS');
      const res = await this.http.post(url, raw, { timeoutMs, maxBytes: MAX_ANSWER_BYTES, headers });
      status = res.status;
      answer = res.body.toString('utf8');
    } catch (err) {
      const latencyMs = Math.round(performance.now() - started);
      if (err instanceof FetchTimeoutError)
        return { ok: false, reason: `timeout after ${timeoutMs} ms`, status: null, latencyMs };
      return { ok: false, reason: `request failed: ${(err as Error).message}`, status: null, latencyMs };
    }
    const latencyMs = Math.round(performance.now() - started);
    if (status < 200 || status > 299)
      return { ok: false, reason: `decision URL answered HTTP ${status}`, status, latencyMs };
    const read = readDecisionAnswer(answer, allowed);
    if ('invalid' in read) return { ok: false, reason: `invalid answer: ${read.invalid}`, status, latencyMs };
    return { ok: true, answer: read.answer, status, latencyMs };
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}
