// A carrier's REST API as the calls service uses it, outside the platform: the sandbox carrier (carrier_b's shape,
// SANDBOX_CARRIER_URL) or carrier_a (CARRIER_A_BASE_URL). It answers every request and records it, so a spec can
// assert what the service asked the carrier.
import { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, startFakeServer, StartedFakeServer } from '@vap/testing';

/** The sandbox account's auth token the specs give the calls service (SANDBOX_AUTH_TOKEN). */
export const SANDBOX_TOKEN = 'sandbox-token-of-the-fake-carrier-0001';

export interface CarrierRequest {
  method: string;
  /** The path after the account's REST base (`/Calls.json`, `/Calls/CA1.json`, `/Call/{uuid}/DTMF/`). */
  path: string;
  /** A form body's fields (carrier_b). */
  form: URLSearchParams;
  /** The body as sent (carrier_a's JSON). */
  body: string;
  /** The sid the carrier gave a call it placed. */
  sid?: string;
  /** The Authorization header the request came with. */
  authorization?: string;
}

/** A call as the carrier's Call resource describes it (carrier_b's fields). */
export interface CarrierCallRecord {
  to: string;
  from: string;
  status: string;
  duration?: string;
  date_created: string;
}

export class FakeSandboxCarrier {
  readonly requests: CarrierRequest[] = [];
  /**
   * What the sandbox carrier does with a simulated inbound call (POST /SimulatedInboundCalls.json) before it
   * answers: deliver the inbound webhook to the platform, as the real one does.
   */
  onSimulatedInbound?: (call: { sid: string; from: string; to: string; voiceUrl: string }) => Promise<void>;
  /** Calls the carrier lists and describes (GET /Calls.json, GET /Calls/{sid}.json), by sid. */
  readonly known = new Map<string, CarrierCallRecord>();
  /** Call ids the carrier answers 404 for, in any path naming them (a call it no longer knows). */
  readonly gone = new Set<string>();
  /** While set, a call placement is recorded at once but answered only when it settles (a carrier slow to dial). */
  placementHeld?: Promise<void>;
  /**
   * carrier_a's records of ended calls by CallUUID (GET /Call/{uuid}/, its fields as carrier_a names them); a
   * call listed here is not live (GET /Call/{uuid}/?status=live answers 404).
   */
  readonly carrierARecords = new Map<string, Record<string, unknown>>();
  /** While set, carrier_b's record of a call (GET /Calls/{sid}.json) is answered only when it settles. */
  recordHeld?: Promise<void>;
  /** While set, carrier_b's record of a call is answered with this error status. */
  recordRefused?: number;
  /** While set, a call placement is answered with this error status and no call is placed. */
  placementRefused?: number;
  private placed = 0;
  private started?: StartedFakeServer;

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const body = (await readBody(req)).toString('utf8');
    const path = (req.url ?? '').replace(/^.*\/Accounts?\/[^/]+/, '');
    if (method === 'POST' && path === '/SimulatedInboundCalls.json') {
      const form = new URLSearchParams(body);
      const sid = `CAin${++this.placed}`;
      this.requests.push({ method, path, form, body, sid });
      const delivered = this.onSimulatedInbound?.({
        sid,
        from: form.get('From')!,
        to: form.get('To')!,
        voiceUrl: form.get('Url')!,
      });
      const ok = await (delivered ?? Promise.resolve()).then(
        () => true,
        () => false,
      );
      res.writeHead(ok ? 201 : 502, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { sid } : { message: 'the inbound webhook was refused' }));
      return;
    }
    // carrier_b places with POST /Calls.json (its sid), carrier_a with POST /Call/ (its request_uuid).
    const placement = method === 'POST' && (path === '/Calls.json' || path === '/Call/');
    const refused = placement ? this.placementRefused : undefined;
    const placing = placement && !refused;
    const sid = placing
      ? path === '/Call/'
        ? `a0000000-0000-4000-8000-${String(++this.placed).padStart(12, '0')}`
        : `CAleg${++this.placed}`
      : undefined;
    this.requests.push({
      method,
      path,
      form: new URLSearchParams(body),
      body,
      sid,
      authorization: req.headers.authorization,
    });
    if (placing) await this.placementHeld;
    if (refused) {
      sendJson(res, refused, { message: 'the carrier could not place the call' });
      return;
    }
    if (sid && path === '/Call/') {
      sendJson(res, 201, { request_uuid: sid, message: 'call fired' });
      return;
    }
    if (method === 'GET' && /^\/Calls\/[^/]+\.json$/.test(path)) {
      await this.recordHeld;
      if (this.recordRefused) {
        sendJson(res, this.recordRefused, { message: 'the carrier cannot say now' });
        return;
      }
    }
    const recordA = /^\/Call\/([^/?]+)\/(\?status=live)?$/.exec(path);
    if (method === 'GET' && recordA && this.carrierARecords.has(recordA[1])) {
      const live = Boolean(recordA[2]);
      sendJson(res, live ? 404 : 200, live ? { error: 'not found' } : this.carrierARecords.get(recordA[1]));
      return;
    }
    const named = path.split(/\/|\.json/).map(decodeURIComponent);
    const status = placing ? 201 : named.some((id) => this.gone.has(id)) ? 404 : 200;
    sendJson(res, status, sid ? { sid } : method === 'GET' ? this.describe(path) : {});
  }

  /** Starts the fake; answers its base URL (SANDBOX_CARRIER_URL, CARRIER_A_BASE_URL). */
  async listen(): Promise<string> {
    this.started = await startFakeServer({ request: (req, res) => this.answer(req, res) });
    return this.started.url;
  }

  /** The listing of the account's calls to and from the numbers asked, or one call's resource. */
  private describe(path: string): unknown {
    const url = new URL(path, 'http://carrier.invalid');
    if (url.pathname === '/Calls.json') {
      const [to, from] = [url.searchParams.get('To'), url.searchParams.get('From')];
      const calls = [...this.known]
        .filter(([, c]) => (!to || c.to === to) && (!from || c.from === from))
        .map(([sid, c]) => ({ sid, direction: 'outbound-api', ...c }));
      return { calls };
    }
    const sid = /^\/Calls\/([^/]+)\.json$/.exec(url.pathname)?.[1];
    const record = sid ? this.known.get(decodeURIComponent(sid)) : undefined;
    return record ? { sid: decodeURIComponent(sid!), ...record } : {};
  }

  /** The requests made on one call's resource (`/Calls/{sid}.json`). */
  onCall(sid: string): CarrierRequest[] {
    return this.requests.filter((r) => r.path === `/Calls/${encodeURIComponent(sid)}.json`);
  }

  async close(): Promise<void> {
    await this.started?.close();
  }
}
