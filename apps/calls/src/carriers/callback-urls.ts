import { Injectable } from '@nestjs/common';
import { CallsConfig } from '../config/calls.config';

/** The gateway's public path for carrier callbacks; the gateway forwards it to calls.callback.ingest. */
export const CALLBACK_ROUTE_PREFIX = 'callbacks';

/**
 * Callback URLs handed to carriers: `{base}/callbacks/{provider}/{callId}/{event}`, base being
 * CALLBACK_BASE_URL, else PUBLIC_BASE_URL. The call id in the path finds the call before the adapter
 * verifies the signature with its credentials.
 */
@Injectable()
export class CallbackUrls {
  constructor(private readonly config: CallsConfig) {}

  get base(): string {
    return this.config.callbackBaseUrl;
  }

  forCall(provider: string, callId: string): (event: string) => string {
    return (event) =>
      `${this.base}/${CALLBACK_ROUTE_PREFIX}/${provider}/${callId}/${encodeURIComponent(event)}`;
  }

  /** Where a carrier reports a message's delivery status: `{base}/callbacks/messages/{provider}/{messageId}/status`. */
  forMessage(provider: string, messageId: string): string {
    return `${this.base}/${CALLBACK_ROUTE_PREFIX}/messages/${provider}/${messageId}/status`;
  }

  /** Where a connection's numbers deliver inbound SMS: `{base}/callbacks/inbound/{provider}/{connectionId}/sms`. */
  inboundSms(provider: string, connectionId: string): string {
    return `${this.base}/${CALLBACK_ROUTE_PREFIX}/inbound/${provider}/${connectionId}/sms`;
  }

  /** The URL a callback was sent to, as the carrier signed it: the configured base plus the requested path. */
  signedUrlOf(path: string): string {
    return `${this.base}${path}`;
  }
}
