import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { WEBHOOK_HEADERS, webhookSignature } from '@vap/api';
import {
  CONNECT_FAILED_MESSAGE,
  connectionFailureMessage,
  FetchTimeoutError,
  isConnectFailure,
  PrivateNetworkGuard,
  PublicHttpClient,
} from '@vap/egress';
import { WebhooksConfig } from '../config/webhooks.config';
import { parseRetryAfter } from './retry-policy';

/** Responses are read up to this size; a receiver should answer small, and only the status counts. */
const MAX_RESPONSE_BYTES = 256 * 1024;
/** What the history keeps of a response body. */
const KEPT_RESPONSE_CHARS = 1024;

export interface SigningSecrets {
  current: string;
  /** The secret before the last rotation, while its grace window lasts. */
  previous: string | null;
}

export interface SendOutcome {
  succeeded: boolean;
  statusCode: number | null;
  timedOut: boolean;
  retryAfterMs: number | null;
  latencyMs: number;
  responseBody: string | null;
  error: string | null;
}

/**
 * One attempt: POST the stored body over HTTPS through the private-network guard (checked on the addresses
 * DNS returns at connect time), signed afresh with this attempt's timestamp. Any 2xx within the timeout is
 * success; everything else, including no answer, is a failure described in the outcome.
 */
@Injectable()
export class DeliverySender implements OnModuleDestroy {
  private readonly http: PublicHttpClient;

  constructor(private readonly config: WebhooksConfig) {
    this.http = new PublicHttpClient(
      new PrivateNetworkGuard({ allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS }),
    );
  }

  async send(
    url: string,
    body: string,
    secrets: SigningSecrets,
    meta: { deliveryId: string; eventType: string },
    cancel?: AbortSignal,
  ): Promise<SendOutcome> {
    const timestamp = new Date().toISOString();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'voice-agent-platform-webhooks/2.0',
      [WEBHOOK_HEADERS.signature]: webhookSignature(secrets.current, timestamp, body),
      [WEBHOOK_HEADERS.timestamp]: timestamp,
      [WEBHOOK_HEADERS.id]: meta.deliveryId,
      [WEBHOOK_HEADERS.event]: meta.eventType,
    };
    if (secrets.previous)
      headers[WEBHOOK_HEADERS.previousSignature] = webhookSignature(secrets.previous, timestamp, body);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!url.startsWith('https://')) {
      return failure({ error: 'endpoint URL is not HTTPS', latencyMs: 0 });
    }
    try {
      const res = await this.http.post(url, body, {
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        maxBytes: MAX_RESPONSE_BYTES,
        headers,
        signal: cancel,
      });
      const succeeded = res.status >= 200 && res.status <= 299;
      return {
        succeeded,
        statusCode: res.status,
        timedOut: false,
        retryAfterMs: succeeded ? null : parseRetryAfter(res.headers['retry-after']),
        latencyMs: elapsed(),
        responseBody: res.body.toString('utf8').slice(0, KEPT_RESPONSE_CHARS) || null,
        error: succeeded ? null : `HTTP ${res.status}`,
      };
    } catch (err) {
      // Before a connection exists every failure reads the same (a refused address, a name that does not
      // resolve, a refused or timed-out connection): delivery history maps no internal names or open ports.
      if (isConnectFailure(err)) return failure({ error: CONNECT_FAILED_MESSAGE, latencyMs: elapsed() });
      if (err instanceof FetchTimeoutError) {
        return failure({
          timedOut: true,
          error: `no response within ${this.config.WEBHOOK_TIMEOUT_MS} ms`,
          latencyMs: elapsed(),
        });
      }
      return failure({ error: connectionFailureMessage(err), latencyMs: elapsed() });
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}

function failure(partial: Partial<SendOutcome> & { latencyMs: number }): SendOutcome {
  return {
    succeeded: false,
    statusCode: null,
    timedOut: false,
    retryAfterMs: null,
    responseBody: null,
    error: null,
    ...partial,
  };
}
