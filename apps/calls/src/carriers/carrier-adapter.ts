import {
  AgentSnapshot,
  AppError,
  CallProvider,
  CarrierCallbackIngest,
  CarrierCallbackReply,
  ErrorCode,
} from '@vap/messages';
import { Call } from '../calls/entities/call.entity';
import { RawCarrierEvent } from '../progress/raw-carrier-event';

/** One inbound carrier callback as the gateway received it (see CarrierCallbackIngest). */
export interface CallbackRequest {
  provider: string;
  method: string;
  /** Full URL as the gateway saw it. */
  url: string;
  /** Path and query as requested; adapters sign `${callback base}${path}`, the URL they handed out. */
  path: string;
  headers: Record<string, string>;
  rawBody: Buffer;
  params: { callId: string; event: string };
}

/** The callback as the gateway forwarded it over NATS, body decoded. */
export function callbackRequestOf(input: CarrierCallbackIngest): CallbackRequest {
  return {
    provider: input.provider,
    method: input.method,
    url: input.url,
    path: input.path,
    headers: input.headers,
    rawBody: Buffer.from(input.rawBodyBase64, 'base64'),
    params: { callId: input.callId, event: input.event },
  };
}

export interface ParsedCallback {
  events: RawCarrierEvent[];
  /** What to answer the carrier (default: 200 empty text). Answer-URL callbacks may need XML. */
  reply?: CarrierCallbackReply;
  /** The answered leg's own id, first learnt from this callback: the caller stores it on the call. */
  carrierLegId?: string;
  /**
   * The placement's id this callback names, when the call has none saved (its placement's answer was lost):
   * the callback URL names the call and the signature covers it, so the caller adopts it as provider_call_id.
   */
  placementId?: string;
}

/** The callback events of a warm transfer's human leg. */
export const TRANSFER_LEG_EVENTS = {
  answer: 'transfer_answer',
  status: 'transfer_status',
  /** carrier_a: the XML a leg moved to the bridge fetches (its conference). */
  conference: 'transfer_conference',
} as const;

/** The human's leg of a warm transfer, as an adapter places it. */
export interface TransferLegPlacement {
  /** The number the leg shows the human: the platform's number on the call. */
  from: string;
  to: string;
  /** How long it rings before the carrier gives up (no answer). */
  ringTimeoutSecs: number;
  callbackUrl(event: string): string;
}

/** What a human leg's callback says: its state in the platform's words (null: nothing to act on). */
export interface TransferLegCallback {
  carrierCallId: string | null;
  /** carrier_a: the placement's request_uuid the callback names too (the leg is known by it until answered). */
  placementId?: string | null;
  status: 'ringing' | 'answered' | 'completed' | 'no_answer' | 'busy' | 'failed' | null;
  occurredAt: Date;
  /** The answer's markup (the consult stream); absent on status callbacks. */
  reply?: CarrierCallbackReply;
}

/** The call as an adapter needs it to place it. */
export interface OutboundCall {
  callId: string;
  partnerId: string;
  agentId: string;
  fromNumber: string;
  toNumber: string;
  agent: AgentSnapshot;
  /** Pre-call variables, for {{name}} placeholders in the agent's messages. */
  variables: Record<string, unknown>;
  /** Where the carrier must send this call's callbacks: `callbackUrl(event)`. */
  callbackUrl(event: string): string;
}

/** The partner's connection the call goes out on; adapters load its credentials by id. */
export interface CarrierConnectionRef {
  id: string;
  partnerId: string;
  provider: CallProvider;
}

/** The known call a callback is about (looked up from the callback URL's call id). */
export interface CallbackCall {
  id: string;
  partnerId: string;
  connectionId: string;
  providerCallId: string | null;
  /** carrier_a's CallUUID of the answered leg, once a callback named it. */
  carrierLegId?: string | null;
}

/**
 * One carrier. Every adapter places calls against its configured base URL and verifies each callback
 * with the carrier's documented signature scheme before anything is stored.
 */
export interface CarrierAdapter {
  readonly provider: CallProvider;
  /**
   * Asks the carrier to place the call. Throws PlacementUnknown when the carrier may have placed it without
   * saying so (no answer once the request went out, a server error), any other error when it surely did not.
   */
  placeCall(call: OutboundCall, connection: CarrierConnectionRef): Promise<{ providerCallId: string }>;
  /** Verifies and reads a callback; throws AppError FORBIDDEN (403) when unsigned or wrongly signed. */
  parseCallback(request: CallbackRequest, call: CallbackCall): Promise<ParsedCallback>;
  /**
   * Ends a live call from the platform's side (the agent's farewell first where the platform speaks on
   * the call). The carrier then reports the end through its usual callbacks; `reason` becomes the call's
   * end_call_reason. A call the carrier no longer knows counts as ended.
   */
  hangup(call: CallbackCall, reason: string): Promise<void>;
  /**
   * Cold-transfers a live call: the carrier drops the media stream and dials `to` (E.164) on the call's
   * leg. False when the carrier no longer knows the call (it has ended); throws the carrier's refusal.
   */
  transfer(call: CallbackCall, to: string): Promise<boolean>;
  /*
   * Warm transfers (see WarmTransfers): a second leg to the human, placed with its own callbacks, whose answer
   * streams to the media plane under the consult id; then both legs bridged by the carrier's conference. A
   * carrier without these transfers cold only.
   */
  /** Places the human's leg; its answer and status callbacks go to `leg.callbackUrl(TRANSFER_LEG_EVENTS.*)`. */
  placeTransferLeg?(call: CallbackCall, leg: TransferLegPlacement): Promise<{ carrierCallId: string }>;
  /**
   * Verifies and reads a callback of the human's leg (`transfer_answer`, `transfer_status`, and carrier_a's
   * `transfer_conference`, fetched by either leg once moved to the bridge); the answer's reply streams the leg to
   * the media plane under `leg.consultId`, the conference's joins `leg.room`. 403 when unsigned or wrongly signed.
   */
  parseTransferLegCallback?(
    request: CallbackRequest,
    call: CallbackCall,
    leg: { carrierCallId: string | null; consultId: string; room: string },
  ): Promise<TransferLegCallback>;
  /**
   * Joins the caller's leg and the human's in one conference named `room` (each leaving ends it, so neither
   * outlives the other there). False when the carrier no longer knows the caller's leg.
   */
  bridge?(call: CallbackCall, humanLegId: string, room: string): Promise<boolean>;
  /** Hangs up a leg by its carrier id (the human's); a leg the carrier no longer knows counts as ended. */
  hangupLeg?(call: CallbackCall, carrierCallId: string): Promise<void>;
  /**
   * Plays touch tones (`digits`: keypad keys, `w` a half-second pause) on a live call's leg through the carrier's
   * REST API. False when the carrier no longer knows the call. Carriers without such a request omit it: keys are
   * then played in-band on the media stream.
   */
  sendDigits?(call: CallbackCall, digits: string): Promise<boolean>;
  /**
   * Checks the carrier's own signature on a media-stream upgrade to `url` (exactly as handed out) with the
   * call's credentials. Carriers that do not sign upgrades (the stream token is then the proof) omit it.
   */
  verifyStreamUpgrade?(call: CallbackCall, url: string, headers: Record<string, string>): Promise<boolean>;
  /**
   * Downloads a recording the carrier reported by URL (with the call's credentials), so the platform can
   * keep it and sign its own 7-day URLs. Carriers that store recordings in blob storage themselves omit it.
   */
  fetchRecording?(url: string, call: CallbackCall): Promise<{ body: Buffer; contentType: string }>;
  /**
   * Reads the call resource from the carrier's REST API. A callback is signed with the partner's own
   * carrier token, so a terminal one is only believed once the carrier's record agrees (status, and the
   * duration to bill). Throws CarrierCallGone when the carrier answers that it does not know the call,
   * and another error when it cannot say (unreachable, refused, not this call).
   * Carriers without a call resource to read omit it.
   */
  fetchCall?(call: Call, hint: { carrierCallId?: string | null }): Promise<CarrierCallState>;
  /**
   * Lists the carrier's calls that may be this call's placement, when the platform asked for it
   * (dial_started_at) but did not save its id: the account's calls from the call's number to its callee
   * created since the dial began, by their provider id. Throws when the carrier cannot be asked. Carriers
   * without such a listing omit it (their callbacks still name the placement).
   */
  findPlacements?(call: Call): Promise<string[]>;
}

/**
 * The carrier may or may not have placed the call: the request went out but no answer came (a timeout, a
 * dropped connection) or the answer does not say (a server error). The call is then neither placed nor
 * failed: the placement recovery finds it at the carrier, or its first callback names it.
 */
export class PlacementUnknown extends AppError {
  constructor(provider: string, why: string) {
    super(ErrorCode.INTERNAL_ERROR, `${provider} may have placed the call (${why})`, { status: 502 });
  }
}

/** The call as the carrier's REST API reports it: still live, or ended with its recorded times. */
export type CarrierCallState =
  | { live: true; providerStatus: string }
  | {
      live: false;
      /** A final status in the carrier's callback vocabulary (normalized like a callback's). */
      providerStatus: string;
      durationSeconds: number | null;
      billDurationSeconds: number | null;
      hangupCause?: string | null;
    };

/** Multi-provider token: every adapter module provides itself under it. */
export const CARRIER_ADAPTERS = Symbol('CARRIER_ADAPTERS');
