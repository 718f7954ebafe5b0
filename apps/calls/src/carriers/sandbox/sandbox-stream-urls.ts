import { Injectable } from '@nestjs/common';
import { buildMediaStreamUrl, issueStreamToken } from '@vap/media';
import { mediaStreamTokenKey, parseSecretsKey } from '@vap/secrets';
import { CallsConfig } from '../../config/calls.config';
import { TelephonyConfig } from '../../config/telephony.config';

/**
 * The media-stream URL of an answered sandbox call, as the answer markup hands it to a real carrier:
 * `<MEDIA_PUBLIC_URL>/media/sandbox/<callId>?token=...`, the token short-lived and bound to the call.
 */
@Injectable()
export class SandboxStreamUrls {
  private readonly key: Buffer;

  constructor(
    private readonly config: CallsConfig,
    telephony: TelephonyConfig,
  ) {
    this.key = mediaStreamTokenKey(parseSecretsKey(telephony.SECRETS_KEY));
  }

  /** Null when MEDIA_PUBLIC_URL is not set: there is no media plane to stream to. */
  forCall(callId: string, now = Date.now()): string | null {
    const publicUrl = this.config.MEDIA_PUBLIC_URL;
    if (!publicUrl) return null;
    const token = issueStreamToken({ callId, ttlMs: this.config.MEDIA_STREAM_TOKEN_TTL_MS, now }, this.key);
    return buildMediaStreamUrl({ publicUrl, carrier: 'sandbox', callId, token });
  }
}
