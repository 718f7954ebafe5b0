import { Injectable } from '@nestjs/common';
import { CallsConfig } from '../config/calls.config';

/** The gateway's public path for carrier callbacks; the gateway forwards it to calls.callback.ingest. */
export const CALLBACK_ROUTE_PREFIX = 'callbacks';

/**
 * Callback URLs handed to carriers: `{CALLBACK_BASE_URL}/callbacks/{provider}/{callId}/{event}`. The
 * call id in the path finds the call before the adapter verifies the signature with its credentials.
 */
@Injectable()
export class CallbackUrls {
  constructor(private readonly config: CallsConfig) {}

  get base(): string {
    return this.config.CALLBACK_BASE_URL.replace(/\/+$/, '');
  }

  forCall(provider: string, callId: string): (event: string) => string {
    return (event) =>
      `${this.base}/${CALLBACK_ROUTE_PREFIX}/${provider}/${callId}/${encodeURIComponent(event)}`;
  }

  /** The URL a callback was sent to, as the carrier signed it: the configured base plus the requested path. */
  signedUrlOf(path: string): string {
    return `${this.base}${path}`;
  }
}
