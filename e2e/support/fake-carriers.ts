import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { waitFor } from '@vap/testing';
import {
  CarrierBCallResource,
  CarrierBCallStatus,
  postSignedForm,
  rfc2822,
  signCarrierA,
  streamInstructionOf,
} from '@vap/carrier-sim';
import { mediaClientFor, MediaStreamClient } from './fake-media/media-client';
import {
  handleMessageRequest,
  inboundSmsFields,
  messageStatusFields,
  SentSms,
} from './fake-carrier-messages';

export type { SentSms } from './fake-carrier-messages';

/**
 * A local stand-in for the two carriers' REST APIs and their callbacks, for e2e tests:
 * - carrier_a (Plivo-shaped): `POST /v1/Account/{auth_id}/Call/` (JSON) answers `request_uuid`;
 *   callbacks are form POSTs signed with signature V3 (X-Plivo-Signature-V3 + nonce).
 * - carrier_b (Twilio-shaped): `POST /2010-04-01/Accounts/{sid}/Calls.json` (form) answers `sid`;
 *   callbacks are form POSTs signed with X-Twilio-Signature.
 * - Account reads (a connection test that places nothing): carrier_b `GET /2010-04-01/Accounts/{sid}.json`
 *   (Twilio REST API 2010-04-01), carrier_a `GET /v1/Account/{auth_id}/` (Plivo API v1); 401 for bad credentials.
 * Both also serve the call resource the platform reconciles final callbacks with, kept like the carrier
 * keeps it: carrier_b `GET /2010-04-01/Accounts/{sid}/Calls/{CallSid}.json` (status, duration), carrier_a
 * `GET /v1/Account/{auth_id}/Call/{call_uuid}/?status=live` (a live leg) and `.../Call/{call_uuid}/` (the
 * call record once it ended: call_state, call_duration, bill_duration). Every correctly signed callback
 * the fake sends moves that record the way the carrier's own state moved; a request made outside it (a
 * forged callback) does not.
 * - Hang-ups of live calls: carrier_a `DELETE /v1/Account/{auth_id}/Call/{call_uuid}/` (or
 *   `/Request/{request_uuid}/` before the answer), carrier_b `POST /2010-04-01/Accounts/{sid}/Calls/{CallSid}.json`
 *   with `Status=completed`; recorded in `hangups` (the test then plays the carrier's final callback).
 * - Cold transfers of live calls: carrier_b `POST .../Calls/{CallSid}.json` with `Twiml`, carrier_a
 *   `POST /v1/Account/{auth_id}/Call/{call_uuid}/` with `legs=aleg`, `aleg_url`, `aleg_method`; recorded in
 *   `transfers` (the test then fetches carrier_a's aleg_url like the carrier would).
 * - Keys sent on live calls: carrier_a `POST /v1/Account/{auth_id}/Call/{call_uuid}/DTMF/` with `digits`
 *   (0-9, *, #, A-D, w) and `leg` (aleg or bleg); recorded in `digitsSent`. carrier_b has no such request: keys
 *   reach its streams in-band, heard by the media client's tone detector (`agentKeys`).
 * - SMS: each carrier's message API and its status and inbound-SMS webhooks (fake-carrier-messages.ts);
 *   messages sent are recorded in `messages`, `messageStatus` reports one's delivery, `inboundSms` delivers one.
 * Answers of the platform (answer URL, inbound webhook) that connect a media stream are read back with
 * `streamOfAnswer`.
 * - Media streams: `answer()` plays the answer callback and, when the platform answers with stream markup,
 *   opens the media stream the way the carrier would (see fake-media/media-client.ts). A hang-up or transfer
 *   through REST ends that stream (carrier_b sends `stop`, then both close the socket).
 * Every REST request must carry the account's HTTP Basic credentials and the required fields, else it is
 * refused like the carrier would (401 / 400). The signing here is written from the carriers' documented
 * schemes independently of the platform's verifier, so a mistake on either side shows.
 */

export interface CarrierAccount {
  provider: 'carrier_a' | 'carrier_b';
  /** auth_id (carrier_a) or account_sid (carrier_b). */
  id: string;
  token: string;
}

export interface PlacedCall {
  provider: 'carrier_a' | 'carrier_b';
  account: CarrierAccount;
  /** request_uuid (carrier_a) or sid (carrier_b), as answered. */
  providerCallId: string;
  /** carrier_a's CallUUID of the leg (callbacks carry it besides ALegRequestUUID). */
  legId: string;
  from: string;
  to: string;
  /** The request as received: JSON for carrier_a, form fields (repeats kept) for carrier_b. */
  json?: Record<string, unknown>;
  form?: Record<string, string[]>;
  /** carrier_a: answer/ring/hangup URLs; carrier_b: Url and StatusCallback. */
  urls: Record<string, string>;
}

/** The carrier's own record of a call (what its REST API answers). */
export interface CarrierCallRecord {
  provider: 'carrier_a' | 'carrier_b';
  accountId: string;
  /** CallSid (carrier_b) or CallUUID of the leg (carrier_a). */
  id: string;
  /** carrier_a: the placement's request_uuid. */
  requestUuid?: string;
  from: string;
  to: string;
  /** Raw status in the carrier's callback vocabulary (queued, ringing, in-progress, completed, busy, ...). */
  status: string;
  durationSeconds: number | null;
  billDurationSeconds: number | null;
  hangupCause?: string;
  /** When the carrier created the call (carrier_b's date_created, RFC 2822). */
  createdAt?: string;
}

/** What the platform answered a callback: carrier_b's is the sandbox carrier's own reply (FormReply). */
export interface CallbackResult {
  status: number;
  contentType: string;
  body: string;
}

export interface Hangup {
  provider: 'carrier_a' | 'carrier_b';
  /** The id the request named: carrier_b's CallSid, carrier_a's CallUUID or request_uuid. */
  id: string;
  /** carrier_b's Status parameter. */
  status?: string;
}

export interface DigitsSent {
  provider: 'carrier_a';
  /** carrier_a's CallUUID. */
  id: string;
  digits: string;
  leg: string;
}

export interface Transfer {
  provider: 'carrier_a' | 'carrier_b';
  /** carrier_b's CallSid or carrier_a's CallUUID. */
  id: string;
  /** carrier_b: the TwiML the call was updated with. */
  twiml?: string;
  /** carrier_a: where the leg fetches its new XML, and how. */
  alegUrl?: string;
  alegMethod?: string;
}

/** The media stream an answer connects: its URL, the token in it, and the markup's attributes. */
export interface StreamAnswer {
  url: string;
  /** MEDIA_PUBLIC_URL's WebSocket form, path prefix included. */
  base: string;
  carrier: string;
  callId: string;
  token: string;
  /** The <Stream> element's attributes (carrier_b: url; carrier_a: bidirectional, keepCallAlive, ...). */
  attributes: Record<string, string>;
  /** carrier_b's <Parameter>s, carrier_a's extraHeaders. */
  parameters: Record<string, string>;
}

const unescapeXml = (text: string) =>
  text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!,
  );

/**
 * Reads the media stream out of an answer, as the carrier would: carrier_b's `<Connect><Stream url>` with
 * `<Parameter>`s, carrier_a's `<Stream ...>url</Stream>` with extraHeaders. Throws when there is none.
 */
export function streamOfAnswer(body: string): StreamAnswer {
  const b =
    /<Response><Connect><Stream ([^>]*)>((?:<Parameter [^>]*\/>)*)<\/Stream><\/Connect><\/Response>/.exec(
      body,
    );
  const a = /<Response><Stream ([^>]*)>([^<]+)<\/Stream><\/Response>/.exec(body);
  if (!a && !b) throw new Error(`the answer connects no media stream: ${body}`);
  const attributes: Record<string, string> = {};
  for (const [, name, value] of (b ?? a)![1].matchAll(/(\w+)="([^"]*)"/g))
    attributes[name] = unescapeXml(value);
  const parameters: Record<string, string> = {};
  if (b) {
    for (const [, name, value] of b[2].matchAll(/<Parameter name="([^"]*)" value="([^"]*)"\/>/g))
      parameters[unescapeXml(name)] = unescapeXml(value);
  } else {
    for (const pair of (attributes.extraHeaders ?? '').split(',').filter(Boolean)) {
      const [name, value] = pair.split('=');
      parameters[name] = value;
    }
  }
  const url = b ? attributes.url : unescapeXml(a![2]);
  const parsed = new URL(url);
  const m = /^(.*)\/media\/([^/]+)\/([^/]+)$/.exec(parsed.pathname);
  if (!m) throw new Error(`not a media stream URL: ${url}`);
  return {
    url,
    base: `${parsed.protocol}//${parsed.host}${m[1]}`,
    carrier: m[2],
    callId: decodeURIComponent(m[3]),
    token: parsed.searchParams.get('token') ?? '',
    attributes,
    parameters,
  };
}

export interface AnswerOptions {
  /** Machine detection's verdict: carrier_b `AnsweredBy`, carrier_a `Machine=true/false`. Default human. */
  answeredBy?: 'human' | 'machine';
  /** Media clock speed of the stream (the platform's MEDIA_TIME_SCALE). */
  timeScale?: number;
  /** How the stream upgrade is signed. */
  streamSign?: SignMode;
  /** Open the stream the answer asks for (default true). */
  openStream?: boolean;
  /** More callback fields. */
  params?: Record<string, string>;
}

export interface AnsweredCall {
  answer: CallbackResult;
  /** The open media stream, or null when the answer asked for none (or openStream was false). */
  media: MediaStreamClient | null;
}

export interface RestRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

export interface FakeCarriers {
  /** http://127.0.0.1:<port>, used as both CARRIER_A_BASE_URL and CARRIER_B_BASE_URL. */
  url: string;
  addAccount(account: CarrierAccount): void;
  calls: PlacedCall[];
  requests: RestRequest[];
  /** Numbers detached from applications, as `<provider>:<number or sid>`. */
  detached: string[];
  /** Hang-up requests for live calls, in order. */
  hangups: Hangup[];
  /** Cold-transfer requests for live calls, in order. */
  transfers: Transfer[];
  waitForHangup(id: string, timeoutMs?: number): Promise<Hangup>;
  waitForTransfer(id: string, timeoutMs?: number): Promise<Transfer>;
  /** carrier_a DTMF requests for live calls, in order. */
  digitsSent: DigitsSent[];
  /** Accounts read with good credentials (carrier_b GET .../Accounts/{sid}.json, carrier_a GET /v1/Account/{id}/). */
  accountFetches: CarrierAccount[];
  waitForDigits(id: string, timeoutMs?: number): Promise<DigitsSent>;
  /**
   * Answers the call (the answer callback, signed) and opens the media stream the platform's markup asks for.
   * Rejects with MediaStreamRefused when the platform refuses the upgrade.
   */
  answer(call: PlacedCall, options?: AnswerOptions): Promise<AnsweredCall>;
  /** The media stream opened for a call (by CallSid / CallUUID), if any. */
  stream(id: string): MediaStreamClient | undefined;
  /** The next REST request is answered with this status (and no call is created). */
  failNext(status: number): void;
  /**
   * Place-call requests are answered this much later (the call is placed at once; a refusal by failNext is
   * answered as late): a slow carrier API.
   */
  delayPlaceCalls(ms: number): void;
  /** Hang-up and transfer requests of live calls are answered (and carried out) this much later. */
  delayCallUpdates(ms: number): void;
  /** The carrier's record of a call by CallSid / CallUUID (undefined when it has none). */
  record(id: string): CarrierCallRecord | undefined;
  /** Changes the carrier's record of a call, as the carrier's own state would change. */
  setRecord(id: string, patch: Partial<CarrierCallRecord>): void;
  /** Reading this call's resource answers `status` (e.g. 503) until called again with null. */
  failRecord(id: string, status: number | null): void;
  /** Reading this call's resource answers this much later (a slow carrier API) until called again with 0. */
  delayRecord(id: string, ms: number): void;
  /**
   * The oldest call placed to `to` that no earlier waitForCall returned: a number dialled twice gives its
   * calls in order, never the first one again.
   */
  waitForCall(to: string, timeoutMs?: number): Promise<PlacedCall>;
  /**
   * carrier_a callback to the call's answer/ring/hangup URL, or its machine_detection_url (`machine`).
   * `sign: 'bad'` signs with a wrong token, 'none' not at all.
   */
  callbackA(
    call: PlacedCall,
    kind: 'answer' | 'ring' | 'hangup' | 'machine',
    params: Record<string, string>,
    sign?: SignMode,
  ): Promise<CallbackResult>;
  /**
   * carrier_b status callback to StatusCallback (or `target: 'answer'` to the voice Url, `amd` to the
   * AsyncAmdStatusCallback).
   */
  callbackB(
    call: PlacedCall,
    params: Record<string, string>,
    options?: { sign?: SignMode; target?: 'status' | 'answer' | 'amd' },
  ): Promise<CallbackResult>;
  /** Posts a signed form to any URL as the given account (inbound-call webhooks). */
  post(
    account: CarrierAccount,
    url: string,
    params: Record<string, string>,
    sign?: SignMode,
  ): Promise<CallbackResult>;
  /** SMS the platform sent, in order. */
  messages: SentSms[];
  /** The oldest message sent to `to` that no earlier waitForMessage returned. */
  waitForMessage(to: string, timeoutMs?: number): Promise<SentSms>;
  /** A delivery status callback of the message to its status URL (carrier_b MessageStatus, carrier_a Status). */
  messageStatus(
    sms: SentSms,
    status: string,
    options?: { errorCode?: string; sign?: SignMode },
  ): Promise<CallbackResult>;
  /** An inbound SMS webhook to `url` (the number's message URL) as the account's carrier sends it. */
  inboundSms(
    account: CarrierAccount,
    url: string,
    sms: { id?: string; from: string; to: string; body: string },
    sign?: SignMode,
  ): Promise<CallbackResult>;
  close(): Promise<void>;
}

export type SignMode = 'good' | 'bad' | 'none';

export { signCarrierA, signCarrierB } from '@vap/carrier-sim';

const pause = (ms: number) =>
  ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function formOf(body: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) (out[k] ??= []).push(v);
  return out;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function postForm(
  url: string,
  params: Record<string, string>,
  headers: Record<string, string>,
): Promise<CallbackResult> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

const FINAL_STATUSES = ['completed', 'busy', 'failed', 'no-answer', 'canceled', 'cancel', 'timeout'];

/** carrier_a's call_state of an ended call's record. */
const CARRIER_A_CALL_STATE: Record<string, string> = {
  completed: 'ANSWER',
  busy: 'BUSY',
  'no-answer': 'NO_ANSWER',
  timeout: 'TIMEOUT',
  canceled: 'CANCEL',
  cancel: 'CANCEL',
  failed: 'FAILED',
};

const intOf = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : null);

export async function startFakeCarriers(): Promise<FakeCarriers> {
  const accounts = new Map<string, CarrierAccount>();
  const calls: PlacedCall[] = [];
  /** The calls waitForCall has returned. */
  const handedOut = new Set<PlacedCall>();
  const requests: RestRequest[] = [];
  const detached: string[] = [];
  const records = new Map<string, CarrierCallRecord>();
  const recordFailures = new Map<string, number>();
  const recordDelays = new Map<string, number>();
  const hangups: Hangup[] = [];
  const transfers: Transfer[] = [];
  const digitsSent: DigitsSent[] = [];
  const messages: SentSms[] = [];
  const messagesHandedOut = new Set<SentSms>();
  const accountFetches: CarrierAccount[] = [];
  const streams = new Map<string, MediaStreamClient>();
  /** The call left the stream (hang-up or transfer): the carrier ends the stream. */
  const endStream = (id: string) => streams.get(id)?.hangUp();
  let failStatus: number | null = null;
  let placeCallDelayMs = 0;
  let callUpdateDelayMs = 0;
  const placeCallAnswer = (res: ServerResponse, body: unknown) => {
    const delay = placeCallDelayMs;
    if (delay <= 0) return send(res, 201, body);
    setTimeout(() => send(res, 201, body), delay);
  };

  /** What a signed callback tells about the call: the carrier's state moved (ended calls stay ended). */
  const track = (account: CarrierAccount, params: Record<string, string>) => {
    const id = account.provider === 'carrier_b' ? params.CallSid : params.CallUUID;
    if (!id) return;
    const record =
      records.get(id) ??
      ({
        provider: account.provider,
        accountId: account.id,
        id,
        from: params.From ?? '',
        to: params.To ?? '',
        status: 'queued',
        durationSeconds: null,
        billDurationSeconds: null,
      } satisfies CarrierCallRecord);
    records.set(id, record);
    const status = params.CallStatus;
    if (!status || FINAL_STATUSES.includes(record.status)) return;
    record.status = status;
    if (FINAL_STATUSES.includes(status)) {
      const duration = intOf(params.CallDuration ?? params.Duration);
      record.durationSeconds = duration ?? 0;
      record.billDurationSeconds = intOf(params.BillDuration) ?? duration ?? 0;
      if (params.HangupCauseName) record.hangupCause = params.HangupCauseName;
    }
  };

  const authorized = (
    req: IncomingMessage,
    provider: CarrierAccount['provider'],
    id: string,
  ): CarrierAccount | null => {
    const account = accounts.get(`${provider}:${id}`);
    const expected = account
      ? `Basic ${Buffer.from(`${account.id}:${account.token}`).toString('base64')}`
      : null;
    return account && req.headers.authorization === expected ? account : null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      authorization: req.headers.authorization,
      body,
    });
    if (failStatus !== null) {
      const status = failStatus;
      failStatus = null;
      // A refused placement takes as long as an accepted one would (delayPlaceCalls).
      if (req.method === 'POST' && /\/(Calls\.json|Call\/)$/.test(url.pathname))
        await pause(placeCallDelayMs);
      return send(res, status, { error: 'simulated carrier failure' });
    }
    if (handleMessageRequest({ authorized, send, messages }, req, res, url, body)) return;
    let m = /^\/v1\/Account\/([^/]+)\/Call\/$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      const account = authorized(req, 'carrier_a', decodeURIComponent(m[1]));
      if (!account) return send(res, 401, { error: 'authentication failed' });
      if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
        return send(res, 415, { error: 'JSON only' });
      const json = JSON.parse(body) as Record<string, unknown>;
      for (const field of ['from', 'to', 'answer_url']) {
        if (typeof json[field] !== 'string' || !json[field])
          return send(res, 400, { error: `${field} is required` });
      }
      const requestUuid = randomUUID();
      const legId = randomUUID();
      records.set(legId, {
        provider: 'carrier_a',
        accountId: account.id,
        id: legId,
        requestUuid,
        from: String(json.from),
        to: String(json.to),
        status: 'queued',
        durationSeconds: null,
        billDurationSeconds: null,
      });
      calls.push({
        provider: 'carrier_a',
        account,
        providerCallId: requestUuid,
        legId,
        from: String(json.from),
        to: String(json.to),
        json,
        urls: {
          answer: String(json.answer_url),
          ring: String(json.ring_url ?? ''),
          hangup: String(json.hangup_url ?? ''),
          machine: String(json.machine_detection_url ?? ''),
        },
      });
      return placeCallAnswer(res, { api_id: randomUUID(), message: 'call fired', request_uuid: requestUuid });
    }
    m = /^\/v1\/Account\/([^/]+)\/Call\/([^/]+)\/$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const account = authorized(req, 'carrier_a', decodeURIComponent(m[1]));
      if (!account) return send(res, 401, { error: 'authentication failed' });
      const id = decodeURIComponent(m[2]);
      await pause(recordDelays.get(id) ?? 0);
      const failure = recordFailures.get(id);
      if (failure) return send(res, failure, { api_id: randomUUID(), error: 'simulated carrier failure' });
      const record = records.get(id);
      const ended = record ? FINAL_STATUSES.includes(record.status) : false;
      if (!record || record.accountId !== account.id)
        return send(res, 404, { api_id: randomUUID(), error: 'not found' });
      if (url.searchParams.get('status') === 'live') {
        // A live leg once it rings or talks; queued and ended calls are not live.
        if (ended || record.status === 'queued')
          return send(res, 404, { api_id: randomUUID(), error: 'not found' });
        return send(res, 200, {
          api_id: randomUUID(),
          call_status: record.status,
          call_uuid: record.id,
          direction: 'outbound',
          from: record.from.replace(/^\+/, ''),
          to: record.to.replace(/^\+/, ''),
          request_uuid: record.requestUuid,
        });
      }
      // The call record exists once the call has ended.
      if (!ended) return send(res, 404, { api_id: randomUUID(), error: 'not found' });
      return send(res, 200, {
        api_id: randomUUID(),
        call_uuid: record.id,
        call_state: CARRIER_A_CALL_STATE[record.status] ?? 'FAILED',
        call_duration: record.durationSeconds ?? 0,
        bill_duration: record.billDurationSeconds ?? 0,
        billed_duration: record.billDurationSeconds ?? 0,
        from_number: record.from.replace(/^\+/, ''),
        to_number: record.to.replace(/^\+/, ''),
        hangup_cause_name: record.hangupCause ?? (record.status === 'completed' ? 'Normal Hangup' : null),
        end_time: new Date().toISOString(),
        resource_uri: `/v1/Account/${account.id}/Call/${record.id}/`,
      });
    }
    m = /^\/v1\/Account\/([^/]+)\/Call\/([^/]+)\/DTMF\/$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      if (!authorized(req, 'carrier_a', decodeURIComponent(m[1])))
        return send(res, 401, { error: 'authentication failed' });
      const id = decodeURIComponent(m[2]);
      await pause(callUpdateDelayMs);
      const live = records.get(id);
      if (
        !calls.some((c) => c.provider === 'carrier_a' && c.legId === id) ||
        (live && FINAL_STATUSES.includes(live.status))
      )
        return send(res, 404, { error: 'not found' });
      const json = (req.headers['content-type'] ?? '').startsWith('application/json')
        ? (JSON.parse(body) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(body));
      const digits = typeof json.digits === 'string' ? json.digits : '';
      const leg = json.leg === undefined ? 'aleg' : String(json.leg);
      if (!/^[0-9*#A-Dw]+$/.test(digits) || !['aleg', 'bleg'].includes(leg))
        return send(res, 400, { error: 'digits (0-9, *, #, A-D, w) and leg (aleg or bleg) are required' });
      digitsSent.push({ provider: 'carrier_a', id, digits, leg });
      return send(res, 202, { api_id: randomUUID(), message: 'digits sent' });
    }
    m = /^\/v1\/Account\/([^/]+)\/Call\/([^/]+)\/$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      if (!authorized(req, 'carrier_a', decodeURIComponent(m[1])))
        return send(res, 401, { error: 'authentication failed' });
      const id = decodeURIComponent(m[2]);
      await pause(callUpdateDelayMs);
      if (!calls.some((c) => c.provider === 'carrier_a' && c.legId === id) && !records.has(id))
        return send(res, 404, { error: 'not found' });
      const json = (req.headers['content-type'] ?? '').startsWith('application/json')
        ? (JSON.parse(body) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(body));
      if (json.legs !== 'aleg' || typeof json.aleg_url !== 'string' || !json.aleg_url)
        return send(res, 400, { error: 'legs=aleg and aleg_url are required' });
      transfers.push({
        provider: 'carrier_a',
        id,
        alegUrl: json.aleg_url,
        alegMethod: String(json.aleg_method ?? 'POST'),
      });
      // The leg leaves the stream for its new XML.
      endStream(id);
      return send(res, 202, { api_id: randomUUID(), message: 'call transferred' });
    }
    m = /^\/v1\/Account\/([^/]+)\/(Call|Request)\/([^/]+)\/$/.exec(url.pathname);
    if (m && req.method === 'DELETE') {
      if (!authorized(req, 'carrier_a', decodeURIComponent(m[1])))
        return send(res, 401, { error: 'authentication failed' });
      const id = decodeURIComponent(m[3]);
      await pause(callUpdateDelayMs);
      const known = calls.some(
        (c) => c.provider === 'carrier_a' && (m![2] === 'Call' ? c.legId : c.providerCallId) === id,
      );
      if (!known) return send(res, 404, { error: 'not found' });
      hangups.push({ provider: 'carrier_a', id });
      const leg = calls.find((c) => c.provider === 'carrier_a' && c.providerCallId === id)?.legId ?? id;
      endStream(leg);
      res.writeHead(204).end();
      return;
    }
    m = /^\/v1\/Account\/([^/]+)\/Number\/([^/]+)\/$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      if (!authorized(req, 'carrier_a', decodeURIComponent(m[1])))
        return send(res, 401, { error: 'authentication failed' });
      detached.push(`carrier_a:${decodeURIComponent(m[2])}`);
      return send(res, 202, { api_id: randomUUID(), message: 'changed' });
    }
    m = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      const account = authorized(req, 'carrier_b', decodeURIComponent(m[1]));
      if (!account) return send(res, 401, { code: 20003, message: 'Authenticate' });
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        return send(res, 415, { message: 'form-encoded only' });
      }
      const form = formOf(body);
      if (!form.To?.[0] || !form.From?.[0])
        return send(res, 400, { code: 21201, message: 'To and From are required' });
      if (!form.Url?.[0] && !form.Twiml?.[0] && !form.ApplicationSid?.[0]) {
        return send(res, 400, { code: 21205, message: 'Url, Twiml or ApplicationSid is required' });
      }
      const sid = `CA${randomBytes(16).toString('hex')}`;
      records.set(sid, {
        provider: 'carrier_b',
        accountId: account.id,
        id: sid,
        createdAt: rfc2822(new Date()),
        from: form.From[0],
        to: form.To[0],
        status: 'queued',
        durationSeconds: null,
        billDurationSeconds: null,
      });
      calls.push({
        provider: 'carrier_b',
        account,
        providerCallId: sid,
        legId: sid,
        from: form.From[0],
        to: form.To[0],
        form,
        urls: {
          answer: form.Url?.[0] ?? '',
          status: form.StatusCallback?.[0] ?? '',
          amd: form.AsyncAmdStatusCallback?.[0] ?? '',
        },
      });
      return placeCallAnswer(res, {
        sid,
        account_sid: account.id,
        status: 'queued',
        to: form.To[0],
        from: form.From[0],
      });
    }
    m = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      // The account's call list, newest first, filtered by To and From as carrier_b filters it.
      const account = authorized(req, 'carrier_b', decodeURIComponent(m[1]));
      if (!account) return send(res, 401, { code: 20003, message: 'Authenticate' });
      const to = url.searchParams.get('To');
      const from = url.searchParams.get('From');
      const listed = [...records.values()]
        .filter((r) => r.provider === 'carrier_b' && r.accountId === account.id)
        .filter((r) => (!to || r.to === to) && (!from || r.from === from))
        .reverse()
        .map((r) => ({
          sid: r.id,
          account_sid: account.id,
          from: r.from,
          to: r.to,
          status: r.status,
          direction: 'outbound-api',
          date_created: r.createdAt ?? rfc2822(new Date()),
        }));
      return send(res, 200, { calls: listed, page: 0, page_size: 50 });
    }
    m = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const account = authorized(req, 'carrier_b', decodeURIComponent(m[1]));
      if (!account) return send(res, 401, { code: 20003, message: 'Authenticate' });
      const sid = decodeURIComponent(m[2]);
      await pause(recordDelays.get(sid) ?? 0);
      const failure = recordFailures.get(sid);
      if (failure) return send(res, failure, { code: 20500, message: 'simulated carrier failure' });
      const record = records.get(sid);
      if (!record || record.accountId !== account.id) {
        return send(res, 404, {
          code: 20404,
          message: `The requested resource ${url.pathname} was not found`,
        });
      }
      const ended = FINAL_STATUSES.includes(record.status);
      // The Call resource as the sandbox carrier answers it (a status a test set stays as it is, valid or not).
      const resource: CarrierBCallResource = {
        sid: record.id,
        account_sid: account.id,
        from: record.from,
        to: record.to,
        status: record.status as CarrierBCallStatus,
        // A string of seconds, null until the call has ended.
        duration: ended ? String(record.durationSeconds ?? 0) : null,
        direction: 'outbound-api',
        date_created: record.createdAt ?? rfc2822(new Date()),
        start_time: null,
        end_time: null,
        answered_by: null,
      };
      return send(res, 200, {
        ...resource,
        api_version: '2010-04-01',
        uri: `/2010-04-01/Accounts/${account.id}/Calls/${record.id}.json`,
      });
    }
    if (m && req.method === 'POST') {
      const account = authorized(req, 'carrier_b', decodeURIComponent(m[1]));
      if (!account) return send(res, 401, { code: 20003, message: 'Authenticate' });
      const sid = decodeURIComponent(m[2]);
      await pause(callUpdateDelayMs);
      if (!calls.some((c) => c.provider === 'carrier_b' && c.providerCallId === sid))
        return send(res, 404, { code: 20404, message: 'The requested resource was not found' });
      const twiml = formOf(body).Twiml?.[0];
      if (twiml) {
        transfers.push({ provider: 'carrier_b', id: sid, twiml });
        // New TwiML takes the call out of <Connect><Stream>: the stream stops.
        endStream(sid);
        return send(res, 200, { sid, account_sid: account.id, status: 'in-progress' });
      }
      const status = formOf(body).Status?.[0];
      if (status !== 'completed' && status !== 'canceled')
        return send(res, 400, { code: 21220, message: 'Status must be completed or canceled' });
      hangups.push({ provider: 'carrier_b', id: sid, status });
      endStream(sid);
      return send(res, 200, { sid, account_sid: account.id, status });
    }
    m = /^\/2010-04-01\/Accounts\/([^/]+)\/IncomingPhoneNumbers\.json$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      if (!authorized(req, 'carrier_b', decodeURIComponent(m[1])))
        return send(res, 401, { code: 20003, message: 'Authenticate' });
      const number = url.searchParams.get('PhoneNumber') ?? '';
      return send(res, 200, {
        incoming_phone_numbers: [{ sid: `PN${number.replace(/\D/g, '')}`, phone_number: number }],
      });
    }
    m = /^\/2010-04-01\/Accounts\/([^/]+)\/IncomingPhoneNumbers\/([^/]+)\.json$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      if (!authorized(req, 'carrier_b', decodeURIComponent(m[1])))
        return send(res, 401, { code: 20003, message: 'Authenticate' });
      const form = formOf(body);
      if (form.VoiceApplicationSid?.[0] !== '')
        return send(res, 400, { message: 'expected VoiceApplicationSid to be cleared' });
      detached.push(`carrier_b:${decodeURIComponent(m[2])}`);
      return send(res, 200, { sid: m[2], voice_application_sid: null });
    }
    // Account fetch, Twilio REST API 2010-04-01 (Accounts resource): a read that places nothing; a wrong
    // AccountSid or auth token is 401 with error 20003, as Twilio answers.
    m = /^\/2010-04-01\/Accounts\/([^/]+)\.json$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const account = authorized(req, 'carrier_b', decodeURIComponent(m[1]));
      if (!account)
        return send(res, 401, {
          code: 20003,
          message: 'Authenticate',
          more_info: 'https://www.twilio.com/docs/errors/20003',
          status: 401,
        });
      accountFetches.push(account);
      return send(res, 200, {
        sid: account.id,
        owner_account_sid: account.id,
        friendly_name: 'Fake carrier_b account',
        status: 'active',
        type: 'Full',
        date_created: rfc2822(new Date(0)),
        date_updated: rfc2822(new Date(0)),
        uri: `/2010-04-01/Accounts/${account.id}.json`,
      });
    }
    // Account details, Plivo API v1 (Account resource, GET /v1/Account/{auth_id}/); 401 for bad credentials.
    m = /^\/v1\/Account\/([^/]+)\/$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const account = authorized(req, 'carrier_a', decodeURIComponent(m[1]));
      if (!account) return send(res, 401, { api_id: randomUUID(), error: 'authentication failed' });
      accountFetches.push(account);
      return send(res, 200, {
        api_id: randomUUID(),
        account_type: 'standard',
        auth_id: account.id,
        auto_recharge: false,
        billing_mode: 'prepaid',
        cash_credits: '100.00000',
        name: 'Fake carrier_a account',
        resource_uri: `/v1/Account/${account.id}/`,
        timezone: 'Asia/Kolkata',
      });
    }
    send(res, 404, { error: `no route ${req.method} ${url.pathname}` });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, { error: err.message }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  const post = (
    account: CarrierAccount,
    url: string,
    params: Record<string, string>,
    sign: SignMode = 'good',
  ) => {
    if (sign === 'good') track(account, params);
    const token = sign === 'bad' ? `${account.token}-wrong` : account.token;
    if (account.provider === 'carrier_b') {
      // Signed as the sandbox carrier signs its callbacks (one implementation); unsigned posts go bare.
      if (sign === 'none') return postForm(url, params, {});
      return postSignedForm({ url, authToken: token, fields: params });
    }
    const nonce = String(Math.floor(Math.random() * 1e15));
    const headers: Record<string, string> =
      sign === 'none'
        ? {}
        : {
            'X-Plivo-Signature-V3': signCarrierA(token, url, params, nonce),
            'X-Plivo-Signature-V3-Nonce': nonce,
          };
    return postForm(url, params, headers);
  };

  const answer = async (call: PlacedCall, options: AnswerOptions = {}): Promise<AnsweredCall> => {
    const machine = options.answeredBy === 'machine';
    const result =
      call.provider === 'carrier_b'
        ? await callbackB(
            call,
            { CallStatus: 'in-progress', AnsweredBy: machine ? 'machine_start' : 'human', ...options.params },
            { target: 'answer' },
          )
        : await callbackA(call, 'answer', {
            CallStatus: 'in-progress',
            Machine: machine ? 'true' : 'false',
            ...options.params,
          });
    const instruction = result.status === 200 ? streamInstructionOf(call.provider, result.body) : null;
    if (!instruction || options.openStream === false) return { answer: result, media: null };
    const media = mediaClientFor({
      account: call.account,
      instruction,
      carrierCallId: call.legId,
      timeScale: options.timeScale,
      sign: options.streamSign,
    });
    streams.set(call.legId, media);
    await media.open();
    return { answer: result, media };
  };

  const callbackA: FakeCarriers['callbackA'] = (call, kind, params, sign = 'good') =>
    post(
      call.account,
      call.urls[kind],
      {
        CallUUID: call.legId,
        ALegUUID: call.legId,
        ALegRequestUUID: call.providerCallId,
        From: call.from,
        To: call.to,
        Direction: 'outbound',
        ...params,
      },
      sign,
    );
  const callbackB: FakeCarriers['callbackB'] = (call, params, options = {}) =>
    post(
      call.account,
      call.urls[options.target ?? 'status'],
      {
        CallSid: call.providerCallId,
        AccountSid: call.account.id,
        From: call.from,
        To: call.to,
        Direction: 'outbound-api',
        ApiVersion: '2010-04-01',
        CallbackSource: 'call-progress-events',
        Timestamp: new Date().toUTCString(),
        ...params,
      },
      options.sign ?? 'good',
    );

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    requests,
    detached,
    hangups,
    transfers,
    digitsSent,
    accountFetches,
    waitForDigits: (id, timeoutMs = 10_000) =>
      waitFor(() => digitsSent.find((d) => d.id === id), {
        timeoutMs,
        description: `keys sent on ${id} at the fake carrier`,
      }),
    waitForTransfer: (id, timeoutMs = 10_000) =>
      waitFor(() => transfers.find((t) => t.id === id), {
        timeoutMs,
        description: `a transfer of ${id} at the fake carrier`,
      }),
    answer,
    stream: (id) => streams.get(id),
    waitForHangup: (id, timeoutMs = 10_000) =>
      waitFor(() => hangups.find((h) => h.id === id), {
        timeoutMs,
        description: `a hang-up of ${id} at the fake carrier`,
      }),
    addAccount: (account) => accounts.set(`${account.provider}:${account.id}`, account),
    failNext: (status) => {
      failStatus = status;
    },
    delayPlaceCalls: (ms) => {
      placeCallDelayMs = ms;
    },
    delayCallUpdates: (ms) => {
      callUpdateDelayMs = ms;
    },
    record: (id) => records.get(id),
    setRecord: (id, patch) => {
      const record = records.get(id);
      if (!record) throw new Error(`the fake carrier has no call ${id}`);
      Object.assign(record, patch);
    },
    failRecord: (id, status) => {
      if (status === null) recordFailures.delete(id);
      else recordFailures.set(id, status);
    },
    delayRecord: (id, ms) => {
      if (ms <= 0) recordDelays.delete(id);
      else recordDelays.set(id, ms);
    },
    waitForCall: async (to, timeoutMs = 10_000) => {
      const placed = await waitFor(() => calls.find((c) => c.to === to && !handedOut.has(c)), {
        timeoutMs,
        description: `a call to ${to} at the fake carrier`,
      });
      handedOut.add(placed);
      return placed;
    },
    callbackA,
    callbackB,
    post,
    messages,
    waitForMessage: async (to, timeoutMs = 10_000) => {
      const sent = await waitFor(() => messages.find((s) => s.to === to && !messagesHandedOut.has(s)), {
        timeoutMs,
        description: `a message to ${to} at the fake carrier`,
      });
      messagesHandedOut.add(sent);
      return sent;
    },
    messageStatus: (sms, status, options = {}) =>
      post(sms.account, sms.statusUrl, messageStatusFields(sms, status, options.errorCode), options.sign),
    inboundSms: (account, url, sms, sign) => post(account, url, inboundSmsFields(account, sms), sign),
    close: () =>
      new Promise<void>((resolve) => {
        for (const media of streams.values()) media.drop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
