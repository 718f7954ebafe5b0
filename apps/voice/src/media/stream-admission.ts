import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  AppError,
  BAD_ORIGIN_DETAIL_FIELD,
  BROWSER_REFUSAL_DETAIL_FIELD,
  BROWSER_REFUSAL_ORIGIN_MAX,
  BROWSER_REFUSAL_REASONS,
  BrowserRefusalReason,
  STREAM_TAKEN_DETAIL,
  Subjects,
  upgradeAgentSnapshot,
  VoiceBrowserRefusedRequest,
  VoiceCallContext,
} from '@vap/messages';
import { type RpcClient, untilAcknowledged } from '@vap/messaging';
import {
  BROWSER_REFUSAL_CLOSE,
  BROWSER_STREAM,
  BrowserRefusalCause,
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
  | 'calls_unavailable'
  /** A browser session that is over (completed, failed, expired). */
  | 'session_ended'
  /** A browser session's partner may not run sessions now. */
  | 'account_restricted';

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
  session_ended: 404,
  account_restricted: 403,
};

/**
 * Refusals a carrier must read as a WebSocket close rather than an HTTP status: the handshake completes and
 * the socket is closed at once with this code, before any audio (a full replica: try again elsewhere).
 */
export const REFUSAL_CLOSE: Readonly<Partial<Record<RefusalReason, { code: number; reason: string }>>> = {
  replica_full: { code: STREAM_CLOSE_REPLICA_FULL, reason: STREAM_CLOSE_REPLICA_FULL_REASON },
};

/**
 * A browser's refused stream, as its page learns it: a browser hides a refused handshake's status, so the socket
 * is accepted and closed at once with BROWSER_REFUSAL_CLOSE's code and the cause as the reason. Only refusals
 * of a well-formed path and token get one; a malformed request stays an HTTP status.
 */
function browserCause(
  reason: RefusalReason,
  recorded: BrowserRefusalReason | null,
): BrowserRefusalCause | null {
  if (recorded) return recorded;
  switch (reason) {
    case 'expired_token':
      return 'token_expired';
    // Decided before any session is looked up: the page learns nothing of the session the path names.
    case 'bad_token_signature':
    case 'token_for_another_call':
      return 'token_invalid';
    case 'replayed':
    case 'stream_taken':
      return 'token_used';
    case 'bad_origin':
      return 'origin_not_allowed';
    case 'carrier_signature':
    case 'account_restricted':
      return 'account_restricted';
    case 'replica_full':
      return 'capacity';
    case 'session_ended':
      return 'session_ended';
    case 'unknown_call':
      return 'session_not_found';
    case 'draining':
    case 'calls_unavailable':
      return 'unavailable';
    default:
      return null;
  }
}

export type Admission =
  | { ok: true; stream: MediaStreamRequest; context: VoiceCallContext; slot: StreamSlot }
  | {
      ok: false;
      reason: RefusalReason;
      status: number;
      /** A browser's refusal: the close its socket gets instead of the HTTP status. */
      close?: { code: number; reason: BrowserRefusalCause };
    };

/**
 * How long an attach is tried again when the calls service did not answer it (no replica listening, a replica that
 * died with the request, a timeout): a calls rollout or crash must not leave an answered call without its
 * conversation. The carrier's upgrade waits meanwhile; a refusal (404, 403, 409) is final at once.
 */
export const ATTACH_RETRY_WINDOW_MS = 12_000;

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
  log?: (level: 'warn' | 'error', message: string) => void;
}

const refused = (reason: RefusalReason): Admission => ({ ok: false, reason, status: REFUSAL_STATUS[reason] });

/** A browser stream's refusal: closed with its cause where the page can act on it, else the HTTP status. */
function refusedBrowser(reason: RefusalReason, recorded: BrowserRefusalReason | null = null): Admission {
  const cause = browserCause(reason, recorded);
  return {
    ...refused(reason),
    ...(cause ? { close: { code: BROWSER_REFUSAL_CLOSE[cause], reason: cause } } : {}),
  };
}

/** The upgrade's headers as the calls service reads them: lower-case names, repeated values joined. */
function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The reason the calls service recorded for a browser stream it refused (the attach's detail), if it said. */
function recordedRefusal(err: unknown): BrowserRefusalReason | null {
  if (!(err instanceof AppError)) return null;
  const detail = err.details?.find((d) => d.field === BROWSER_REFUSAL_DETAIL_FIELD)?.message;
  return BROWSER_REFUSAL_REASONS.find((r) => r === detail) ?? null;
}

/** calls.voice.attach's refusals, by the status the calls service answered. */
function attachRefusal(err: unknown): RefusalReason {
  if (err instanceof AppError) {
    const recorded = recordedRefusal(err);
    if (recorded === 'token_expired') return 'expired_token';
    if (recorded === 'session_ended') return 'session_ended';
    if (recorded === 'account_restricted') return 'account_restricted';
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
    const stream = parseMediaStreamRequest(target, this.options.publicUrl);
    const browser = stream.ok && stream.carrier === BROWSER_STREAM;
    const refuse = browser ? refusedBrowser : refused;
    if (this.options.isDraining()) return refuse('draining');
    if (!stream.ok) return refused(stream.reason);
    const now = this.options.now?.() ?? Date.now();
    const verified = verifyStreamToken(stream.token, this.options.tokenKey, now);
    if (!verified.ok) {
      if (verified.reason === 'expired') {
        // The signature held: the session the token was issued for records that it lapsed.
        if (browser && verified.claims.callId === stream.callId) {
          await this.recordBrowserRefusal(stream.callId, 'token_expired', headers);
        }
        return refuse('expired_token');
      }
      return refuse(verified.reason === 'bad_signature' ? 'bad_token_signature' : 'malformed_token');
    }
    if (verified.claims.callId !== stream.callId) return refuse('token_for_another_call');
    const slot = this.options.capacity.reserve();
    if (!slot) {
      if (browser) await this.recordBrowserRefusal(stream.callId, 'capacity', headers);
      return refuse('replica_full');
    }
    try {
      // The partner is unknown until the calls service answers: attach is a system command. Every retry carries
      // this upgrade's attempt id: one the calls service took but whose answer was lost (a calls replica that
      // died, or answered after the timeout) is answered again, not refused as a second use of the token.
      const request = {
        callId: stream.callId,
        carrier: stream.carrier,
        nonce: verified.claims.nonce,
        url: stream.publicUrl,
        headers: flatHeaders(headers),
        replicaId: this.options.replicaId,
        attemptId: randomUUID(),
      };
      const context = await untilAcknowledged(
        () => this.options.rpc.request(Subjects.calls.voiceAttach, null, request),
        {
          deadline: Date.now() + ATTACH_RETRY_WINDOW_MS,
          retryDelayMs: 250,
          maxDelayMs: 2000,
          onRetry: (attempt, error) =>
            this.options.log?.(
              'warn',
              `call ${stream.callId}: attach attempt ${attempt} failed, again: ${error.message}`,
            ),
        },
      );
      // Attached calls are served even if draining began meanwhile: the nonce is spent, the drain ends them.
      // A calls replica older than the snapshot's current shape sends the call's agent in its old one.
      return { ok: true, stream, context: { ...context, agent: upgradeAgentSnapshot(context.agent) }, slot };
    } catch (err) {
      slot.release();
      return browser ? refusedBrowser(attachRefusal(err), recordedRefusal(err)) : refused(attachRefusal(err));
    }
  }

  /**
   * Has the calls service record a browser stream refused here (calls.voice.browser_refused), awaited so the
   * session shows it by the time the page learns it; a failure to record does not change the refusal.
   */
  private async recordBrowserRefusal(
    sessionId: string,
    reason: VoiceBrowserRefusedRequest['reason'],
    headers: IncomingHttpHeaders,
  ): Promise<void> {
    const given = headers['origin'];
    const origin = typeof given === 'string' ? given.slice(0, BROWSER_REFUSAL_ORIGIN_MAX) : null;
    try {
      await this.options.rpc.request(Subjects.calls.voiceBrowserRefused, null, { sessionId, reason, origin });
    } catch (err) {
      this.options.log?.(
        'warn',
        `browser session ${sessionId}: its ${reason} refusal was not recorded: ${(err as Error).message}`,
      );
    }
  }
}
