import { Injectable } from '@nestjs/common';
import { issueStreamToken, mediaWebSocketBase } from '@vap/media';
import { mediaStreamTokenKey, parseSecretsKey } from '@vap/secrets';
import { CallsConfig } from '../config/calls.config';
import { TelephonyConfig } from '../config/telephony.config';

/** A new session's access token and the WebSocket URL the browser opens with it. */
export interface BrowserSessionAccess {
  token: string;
  connectUrl: string;
  expiresAt: Date;
}

/**
 * Browser session access: a stream token (the key calls signs carriers' stream URLs with, so the voice service
 * verifies it as it verifies theirs) bound to the session's id with a fresh nonce, valid
 * BROWSER_SESSION_TOKEN_TTL_MS, in `{MEDIA_PUBLIC_URL as ws(s)}/browser/{id}?token=...`.
 */
@Injectable()
export class BrowserSessionLinks {
  private readonly key: Buffer;

  constructor(
    private readonly config: CallsConfig,
    telephony: TelephonyConfig,
  ) {
    this.key = mediaStreamTokenKey(parseSecretsKey(telephony.SECRETS_KEY));
  }

  access(sessionId: string, now: number): BrowserSessionAccess {
    const ttlMs = this.config.BROWSER_SESSION_TOKEN_TTL_MS;
    const token = issueStreamToken({ callId: sessionId, ttlMs, now }, this.key);
    const base = mediaWebSocketBase(this.config.MEDIA_PUBLIC_URL);
    const prefix = base.pathname === '/' ? '' : base.pathname;
    const connectUrl = `${base.protocol}//${base.host}${prefix}/browser/${encodeURIComponent(sessionId)}?token=${encodeURIComponent(token)}`;
    return { token, connectUrl, expiresAt: new Date(now + ttlMs) };
  }
}
