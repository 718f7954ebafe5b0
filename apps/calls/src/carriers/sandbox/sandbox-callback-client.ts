import { Injectable, Logger } from '@nestjs/common';
import { CallsConfig } from '../../config/calls.config';
import { SANDBOX_SIGNATURE_HEADER, SANDBOX_TIMESTAMP_HEADER, signSandboxCallback } from './sandbox-signature';
import { SandboxSigningKey } from './sandbox-signing-key';

const ATTEMPTS = 5;

/**
 * Sends the sandbox carrier's callbacks over HTTP to the gateway's public callback route, signed, like a
 * real carrier would; retried on network errors and 5xx (the receiver ignores duplicates).
 */
@Injectable()
export class SandboxCallbackClient {
  private readonly logger = new Logger(SandboxCallbackClient.name);

  constructor(
    private readonly key: SandboxSigningKey,
    private readonly config: CallsConfig,
  ) {}

  async post(url: string, fields: Record<string, string>): Promise<void> {
    const body = new URLSearchParams(fields).toString();
    // Signed for `url`, the public callback URL; sent where this service reaches the gateway.
    const target = this.config.sandboxCallbackTarget(url);
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const timestamp = String(Date.now());
      try {
        const res = await fetch(target, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            [SANDBOX_TIMESTAMP_HEADER]: timestamp,
            [SANDBOX_SIGNATURE_HEADER]: signSandboxCallback(this.key.value, timestamp, url, body),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.body?.cancel();
        if (res.ok) return;
        if (res.status < 500) {
          this.logger.error(
            `callback ${fields.CallStatus ?? fields.EventType} to ${url} refused with ${res.status}`,
          );
          return;
        }
      } catch (err) {
        if (attempt === ATTEMPTS) {
          this.logger.error(`callback to ${url} failed: ${(err as Error).message}`);
          return;
        }
      }
      await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
    }
  }
}
