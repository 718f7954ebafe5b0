import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { LIFECYCLE_HOOK_HEADERS, LIFECYCLE_HOOK_LIMITS, lifecycleHookSignature } from '@vap/api';
import {
  CONNECT_FAILED_MESSAGE,
  connectionFailureMessage,
  FetchTimeoutError,
  isConnectFailure,
  PrivateNetworkGuard,
  privateNetworksAllowed,
  PublicHttpClient,
  UnsupportedUrlError,
} from '@vap/egress';
import { maskedHeaders } from '@vap/messages';
import { HookExchange } from '../integration-log/integration-log-entry';

export interface HookRequest {
  url: string;
  secret: string;
  /** X-Vap-Event. */
  event: string;
  hookId: string;
  body: unknown;
  timeoutMs: number;
}

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
      requestHeaders: maskedHeaders(headers),
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
      // Before a connection exists every failure reads the same (a refused address, a name that does not
      // resolve, a refused or timed-out connection): the hook's log maps no internal names or open ports.
      if (isConnectFailure(err))
        return done({ outcome: 'refused', status: null, body: null, error: CONNECT_FAILED_MESSAGE });
      if (err instanceof FetchTimeoutError)
        return done({
          outcome: 'timeout',
          status: null,
          body: null,
          error: `no answer within ${request.timeoutMs} ms`,
        });
      if (err instanceof UnsupportedUrlError)
        return done({ outcome: 'refused', status: null, body: null, error: err.message.slice(0, 500) });
      return done({ outcome: 'http_error', status: null, body: null, error: connectionFailureMessage(err) });
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}
