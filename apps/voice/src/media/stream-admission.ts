import type { IncomingHttpHeaders } from 'node:http';
import {
  AppError,
  BAD_ORIGIN_DETAIL_FIELD,
  STREAM_TAKEN_DETAIL,
  Subjects,
  VoiceCallContext,
} from '@vap/messages';
import type { RpcClient } from '@vap/messaging';
import {
  MediaStreamRequest,
  parseMediaStreamRequest,
  STREAM_CLOSE_REPLICA_FULL,
  STREAM_CLOSE_REPLICA_FULL_REASON,
  verifyStreamToken,
} from '@vap/media';
import type { ReplicaCapacity, StreamSlot } from './replica-capacity';

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
  | 'bad_origin'
  | 'replayed'
  | 'stream_taken'
  | 'unknown_call'
  | 'replica_full'
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
  bad_origin: 403,
  replayed: 409,
  stream_taken: 409,
  unknown_call: 404,
  replica_full: 503,
  calls_unavailable: 503,
};

/**
 * Refusals a carrier must read as a WebSocket close rather than an HTTP status: the handshake completes and
 * the socket is closed at once with this code, before any audio (a full replica: try again elsewhere).
 */
export const REFUSAL_CLOSE: Readonly<Partial<Record<RefusalReason, { code: number; reason: string }>>> = {
  replica_full: { code: STREAM_CLOSE_REPLICA_FULL, reason: STREAM_CLOSE_REPLICA_FULL_REASON },
};

export type Admission =
  | { ok: true; stream: MediaStreamRequest; context: VoiceCallContext; slot: StreamSlot }
  | { ok: false; reason: RefusalReason; status: number };

export interface StreamAdmissionOptions {
  rpc: RpcClient;
  /** STREAM_TOKEN_KEY: the key the calls service signs stream URLs with (mediaStreamTokenKey of SECRETS_KEY). */
  tokenKey: Buffer;
  /** MEDIA_PUBLIC_URL: the stream URL the carrier signed is rebuilt on it. */
  publicUrl: string;
  isDraining: () => boolean;
  /** This replica's id (ReplicaHeartbeat), recorded on the call at attach. */
  replicaId: string;
  /** MAX_LIVE_SESSIONS: a stream holds a place from before its attach until its session finished. */
  capacity: ReplicaCapacity;
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
    // A browser stream from a page the session does not allow.
    if (err.status === 403 && err.details?.some((d) => d.field === BAD_ORIGIN_DETAIL_FIELD))
      return 'bad_origin';
    if (err.status === 403) return 'carrier_signature';
    if (err.status === 409) {
      return err.details?.some((d) => d.field === STREAM_TAKEN_DETAIL.field) ? 'stream_taken' : 'replayed';
    }
    if (err.status === 404) return 'unknown_call';
  }
  return 'calls_unavailable';
}

/**
 * Decides one media-stream upgrade before any audio: the replica takes streams, the path names a carrier
 * and a call (or is a browser session's `/browser/<id>`, carrier `browser`, whose `origin` header the calls
 * service checks against the session's allowed origins), the token is ours, unexpired and bound to that
 * call, the replica has room (MAX_LIVE_SESSIONS); then the calls service (the owner of the call) checks the carrier's own signature over the public URL,
 * claims the token's nonce once across every replica and the call's one media stream, and answers the
 * call's context. The place on the replica is taken before the calls service is asked, so a full replica
 * spends neither the token nor the call's stream.
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
    const slot = this.options.capacity.reserve();
    if (!slot) return refused('replica_full');
    try {
      // The partner is unknown until the calls service answers: attach is a system command.
      const context = await this.options.rpc.request(Subjects.calls.voiceAttach, null, {
        callId: stream.callId,
        carrier: stream.carrier,
        nonce: verified.claims.nonce,
        url: stream.publicUrl,
        headers: flatHeaders(headers),
        replicaId: this.options.replicaId,
      });
      // Attached calls are served even if draining began meanwhile: the nonce is spent, the drain ends them.
      return { ok: true, stream, context, slot };
    } catch (err) {
      slot.release();
      return refused(attachRefusal(err));
    }
  }
}
