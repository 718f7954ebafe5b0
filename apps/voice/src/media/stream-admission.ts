import type { IncomingHttpHeaders } from 'node:http';
import { AppError, Subjects, VoiceCallContext } from '@vap/contracts';
import type { RpcClient } from '@vap/messaging';
import { MediaStreamRequest, parseMediaStreamRequest, verifyStreamToken } from '@vap/media';

/** Why an upgrade was refused; each is answered with one HTTP status before any audio flows. */
export type RefusalReason =
  | 'draining'
  | 'not_a_stream_path'
  | 'unknown_carrier'
  | 'missing_token'
  | 'malformed_token'
  | 'bad_token_signature'
  | 'expired_token'
  | 'token_for_another_call'
  | 'carrier_signature'
  | 'replayed'
  | 'unknown_call'
  | 'calls_unavailable';

export const REFUSAL_STATUS: Readonly<Record<RefusalReason, number>> = {
  draining: 503,
  not_a_stream_path: 404,
  unknown_carrier: 404,
  missing_token: 401,
  malformed_token: 401,
  bad_token_signature: 401,
  expired_token: 401,
  token_for_another_call: 401,
  carrier_signature: 403,
  replayed: 409,
  unknown_call: 404,
  calls_unavailable: 503,
};

export type Admission =
  | { ok: true; stream: MediaStreamRequest; context: VoiceCallContext }
  | { ok: false; reason: RefusalReason; status: number };

export interface StreamAdmissionOptions {
  rpc: RpcClient;
  /** STREAM_TOKEN_KEY: the key the calls service signs stream URLs with (mediaStreamTokenKey of SECRETS_KEY). */
  tokenKey: Buffer;
  /** MEDIA_PUBLIC_URL: the stream URL the carrier signed is rebuilt on it. */
  publicUrl: string;
  isDraining: () => boolean;
  now?: () => number;
}

const refused = (reason: RefusalReason): Admission => ({ ok: false, reason, status: REFUSAL_STATUS[reason] });

/** The upgrade's headers as the calls service reads them: lower-case names, repeated values joined. */
function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** calls.voice.attach's refusals, by the status the calls service answered. */
function attachRefusal(err: unknown): RefusalReason {
  if (err instanceof AppError) {
    if (err.status === 403) return 'carrier_signature';
    if (err.status === 409) return 'replayed';
    if (err.status === 404) return 'unknown_call';
  }
  return 'calls_unavailable';
}

/**
 * Decides one media-stream upgrade before any audio: the replica takes streams, the path names a carrier
 * and a call, the token is ours, unexpired and bound to that call; then the calls service (the owner of the
 * call) checks the carrier's own signature over the public URL, claims the token's nonce once across every
 * replica, and answers the call's context.
 */
export class StreamAdmission {
  constructor(private readonly options: StreamAdmissionOptions) {}

  async admit(target: string, headers: IncomingHttpHeaders): Promise<Admission> {
    if (this.options.isDraining()) return refused('draining');
    const stream = parseMediaStreamRequest(target, this.options.publicUrl);
    if (!stream.ok) return refused(stream.reason);
    const now = this.options.now?.() ?? Date.now();
    const verified = verifyStreamToken(stream.token, this.options.tokenKey, now);
    if (!verified.ok) {
      return refused(
        verified.reason === 'expired'
          ? 'expired_token'
          : verified.reason === 'bad_signature'
            ? 'bad_token_signature'
            : 'malformed_token',
      );
    }
    if (verified.claims.callId !== stream.callId) return refused('token_for_another_call');
    try {
      // The partner is unknown until the calls service answers: attach is a system command.
      const context = await this.options.rpc.request(Subjects.calls.voiceAttach, null, {
        callId: stream.callId,
        carrier: stream.carrier,
        nonce: verified.claims.nonce,
        url: stream.publicUrl,
        headers: flatHeaders(headers),
      });
      // Attached calls are served even if draining began meanwhile: the nonce is spent, the drain ends them.
      return { ok: true, stream, context };
    } catch (err) {
      return refused(attachRefusal(err));
    }
  }
}
