import { Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { Agent, request } from 'undici';
import { AppError, ErrorCode } from '@vap/messages';
import { TelephonyConfig } from '../config/telephony.config';
import { ConnectionHealthRecorder } from '../telephony/connections/health/connection-health.recorder';

export interface CarrierRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** HTTP Basic credentials of the partner's carrier account. */
  basic: { user: string; password: string };
  json?: unknown;
  form?: URLSearchParams;
  /** The partner's connection the request is made for, and the operation's name: its health records it. */
  health?: { connectionId: string; operation: string };
}

export interface CarrierResponse {
  status: number;
  body: unknown;
}

const MAX_ANSWER_BYTES = 256 * 1024;

/** Carriers reached over REST, each at the base one setting names. */
const BASE_URL_SETTINGS = {
  carrier_a: 'CARRIER_A_BASE_URL',
  carrier_b: 'CARRIER_B_BASE_URL',
  sandbox: 'SANDBOX_CARRIER_URL',
} as const satisfies Record<string, keyof TelephonyConfig>;

export type RestCarrier = keyof typeof BASE_URL_SETTINGS;

/**
 * REST requests to a carrier's API (base URLs come from the platform's config, not from partners). Every
 * request has a deadline; a carrier that is down, slow or refuses is a 502 for the caller, never a hang.
 */
@Injectable()
export class CarrierHttp implements OnModuleDestroy {
  private readonly agent: Agent;

  constructor(
    private readonly config: TelephonyConfig,
    @Optional() private readonly health?: ConnectionHealthRecorder,
  ) {
    this.agent = new Agent({
      connect: { timeout: config.CARRIER_HTTP_TIMEOUT_MS },
      keepAliveTimeout: 10_000,
    });
  }

  async send(provider: string, req: CarrierRequest): Promise<CarrierResponse> {
    const timeout = this.config.CARRIER_HTTP_TIMEOUT_MS;
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${req.basic.user}:${req.basic.password}`).toString('base64')}`,
      accept: 'application/json',
    };
    let body: string | undefined;
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = req.form.toString();
    }
    let status: number;
    let text: string;
    try {
      const res = await request(req.url, {
        method: req.method,
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(timeout),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      status = res.statusCode;
      const buf = Buffer.from(await res.body.arrayBuffer());
      if (buf.length > MAX_ANSWER_BYTES) throw new Error('answer too large');
      text = buf.toString('utf8');
    } catch (err) {
      if (req.health) this.health?.failure(req.health.connectionId, req.health.operation, null);
      throw new CarrierUnanswered(provider, err);
    }
    if (req.health) {
      const { connectionId, operation } = req.health;
      if (status >= 200 && status <= 299) this.health?.success(connectionId, operation);
      else this.health?.failure(connectionId, operation, status);
    }
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Keep the text: some errors come back as plain text.
    }
    return { status, body: parsed };
  }

  /** The configured REST base of a carrier, or 502 when the platform has none. */
  baseUrl(provider: RestCarrier): string {
    const setting = BASE_URL_SETTINGS[provider];
    const base = this.config[setting];
    if (!base) throw AppError.downstream(`${provider} is not configured on this platform (${setting})`);
    return base.replace(/\/+$/, '');
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * Errors that come before a request is written (no connection, no name, a refused TLS handshake): the
 * carrier surely did not receive it. Any other (a timeout while waiting for the answer, a reset or closed
 * socket after the request went out, an answer too large) may come after the carrier acted on it.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
]);

/** The carrier gave no answer (502 to the caller); `maybeReceived` says whether it may have got the request. */
export class CarrierUnanswered extends AppError {
  readonly maybeReceived: boolean;

  constructor(provider: string, cause: unknown) {
    const err = cause as { message?: string; code?: string; cause?: { code?: string } } | null;
    super(ErrorCode.INTERNAL_ERROR, `${provider} did not answer: ${err?.message ?? String(cause)}`, {
      status: 502,
    });
    const code = err?.code ?? err?.cause?.code;
    this.maybeReceived = !(code && NOT_SENT_CODES.has(code));
  }
}

/** The carrier's error text for logs and 502 messages, without echoing anything large. */
export function carrierError(provider: string, res: CarrierResponse): AppError {
  const detail =
    res.body && typeof res.body === 'object'
      ? String(
          (res.body as Record<string, unknown>).message ?? (res.body as Record<string, unknown>).error ?? '',
        )
      : String(res.body ?? '');
  return AppError.downstream(
    `${provider} refused the request: HTTP ${res.status}${detail ? ` (${detail.slice(0, 200)})` : ''}`,
  );
}

/**
 * The carrier answered that it does not know the call (404 on its call resource): it never had it, or lost
 * it (a carrier restart). Still a 502 to a caller that only wanted the call's state.
 */
export class CarrierCallGone extends AppError {
  constructor(provider: string, callId: string) {
    super(ErrorCode.INTERNAL_ERROR, `${provider} does not know call ${callId} (HTTP 404)`, { status: 502 });
  }
}
