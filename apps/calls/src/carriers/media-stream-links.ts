import { Injectable } from '@nestjs/common';
import { buildMediaStreamUrl, issueStreamToken, MediaStreamCarrier } from '@vap/media';
import { mediaStreamTokenKey, parseSecretsKey } from '@vap/secrets';
import { CallsConfig } from '../config/calls.config';
import { TelephonyConfig } from '../config/telephony.config';

/**
 * Media-stream URLs for answered calls: `{MEDIA_PUBLIC_URL}/media/{carrier}/{callId}?token=...`, the token
 * signed with the key both calls and voice derive from SECRETS_KEY, bound to the call, single use (the
 * voice service claims its nonce through calls.voice.attach) and valid MEDIA_STREAM_TOKEN_TTL_MS.
 */
@Injectable()
export class MediaStreamLinks {
  private readonly key: Buffer;

  constructor(
    private readonly config: CallsConfig,
    telephony: TelephonyConfig,
  ) {
    this.key = mediaStreamTokenKey(parseSecretsKey(telephony.SECRETS_KEY));
  }

  /** A fresh stream URL (a new token each time: a carrier that refetches the answer gets its own). */
  streamUrl(carrier: MediaStreamCarrier, callId: string, now = Date.now()): string {
    const token = issueStreamToken({ callId, ttlMs: this.config.MEDIA_STREAM_TOKEN_TTL_MS, now }, this.key);
    return buildMediaStreamUrl({ publicUrl: this.config.MEDIA_PUBLIC_URL, carrier, callId, token });
  }
}
