import { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { isUnder, SandboxCarrierConfig } from '../config/sandbox-carrier.config';
import { CarrierRefusal, SimulatedCalls } from '../calls/simulated-calls';
import { MessageRefusal, SimulatedMessages } from '../messages/simulated-messages';
import { CarrierMetrics } from './metrics';

const MAX_BODY_BYTES = 64 * 1024;
const E164 = /^\+[1-9]\d{6,14}$/;
const API_PREFIX = '/2010-04-01/Accounts/';

/**
 * carrier_b's REST API for the one account this carrier hosts (HTTP Basic AccountSid:AuthToken):
 * `POST Calls.json` places, `GET Calls.json` lists (To, From, PageSize), `GET Calls/{sid}.json` reads, `POST Calls/{sid}.json` hangs up or transfers,
 * `POST SimulatedInboundCalls.json` rings one of the platform's numbers, `GET IncomingPhoneNumbers.json`
 * lists none; `POST Messages.json` sends an SMS (To, From, Body, StatusCallback), `POST SimulatedInboundMessages.json`
 * delivers one to the platform's number (From, To, Body, Url). Plus /health/live, /health/ready and /metrics for the cluster.
 */
export class CarrierApi {
  constructor(
    private readonly config: SandboxCarrierConfig,
    private readonly calls: SimulatedCalls,
    private readonly ready: () => boolean,
    private readonly metrics?: CarrierMetrics,
    private readonly messages?: SimulatedMessages,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.metrics && req.url?.startsWith(API_PREFIX)) {
      const metrics = this.metrics;
      res.once('finish', () => metrics.responded(res.statusCode));
    }
    try {
      await this.route(req, res);
    } catch (err) {
      // A client that went away mid-request: nobody to answer.
      if (res.headersSent || res.destroyed) return void res.destroy();
      if (err instanceof CarrierRefusal || err instanceof MessageRefusal)
        return send(res, err.status, { code: err.code, message: err.message, status: err.status });
      send(res, 500, { code: 20500, message: 'Internal error', status: 500 });
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/health/live') return send(res, 200, { status: 'ok' });
    if (req.method === 'GET' && path === '/health/ready') {
      return this.ready()
        ? send(res, 200, { status: 'ok', live_calls: this.calls.liveCount })
        : send(res, 503, { status: 'error', reason: 'stopping' });
    }
    if (req.method === 'GET' && path === '/metrics' && this.metrics) {
      const text = await this.metrics.text();
      res.writeHead(200, { 'content-type': this.metrics.contentType, 'cache-control': 'no-store' });
      res.end(text);
      return;
    }
    if (!path.startsWith(API_PREFIX))
      throw new CarrierRefusal(404, 20404, 'The requested resource was not found');
    const [account, ...rest] = path.slice(API_PREFIX.length).split('/');
    if (!this.authorized(req, account)) throw new CarrierRefusal(401, 20003, 'Authenticate');
    const resource = rest.join('/');
    const form = req.method === 'POST' ? await readForm(req) : new URLSearchParams();

    if (resource === 'Calls.json' && req.method === 'POST')
      return send(res, 201, this.calls.place(this.placement(form)));
    if (resource === 'Calls.json' && req.method === 'GET') return send(res, 200, this.list(req.url ?? ''));
    if (resource === 'SimulatedInboundCalls.json' && req.method === 'POST') {
      return send(res, 201, await this.calls.ring(this.inbound(form)));
    }
    if (resource === 'Messages.json' && req.method === 'POST' && this.messages)
      return send(res, 201, this.messages.send(this.message(form)));
    if (resource === 'SimulatedInboundMessages.json' && req.method === 'POST' && this.messages) {
      return send(res, 201, await this.messages.receive(this.inboundMessage(form)));
    }
    if (resource === 'IncomingPhoneNumbers.json' && req.method === 'GET') {
      return send(res, 200, { incoming_phone_numbers: [] });
    }
    const call = /^Calls\/(CA[0-9a-f]{32})\.json$/.exec(resource);
    if (call) {
      const found =
        req.method === 'GET'
          ? this.calls.find(call[1])
          : req.method === 'POST'
            ? this.calls.update(call[1], form)
            : null;
      if (found) return send(res, 200, found);
      // No record: never placed here, or placed before this process started (nothing survives a restart).
      throw new CarrierRefusal(404, 20404, `The requested resource ${path} was not found`);
    }
    throw new CarrierRefusal(404, 20404, 'The requested resource was not found');
  }

  /**
   * carrier_b's call list, one page: `To` and `From` filter (E.164), `PageSize` bounds it (default 50, at
   * most 1000), newest first. Only the calls this process still knows are listed.
   */
  private list(url: string) {
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    const filter = { to: optionalNumber(query, 'To'), from: optionalNumber(query, 'From') };
    const size = query.get('PageSize');
    const pageSize = size && /^\d{1,4}$/.test(size) ? Math.min(Math.max(Number(size), 1), 1000) : 50;
    return { calls: this.calls.list(filter, pageSize), page: 0, page_size: pageSize };
  }

  /** HTTP Basic with the account's sid and token, and the path naming that account. */
  private authorized(req: IncomingMessage, account: string): boolean {
    const header = req.headers.authorization ?? '';
    const expected = Buffer.from(
      `Basic ${Buffer.from(`${this.config.SANDBOX_ACCOUNT_SID}:${this.config.SANDBOX_AUTH_TOKEN}`).toString('base64')}`,
    );
    const given = Buffer.from(header);
    const same = given.length === expected.length && timingSafeEqual(given, expected);
    return same && account === this.config.SANDBOX_ACCOUNT_SID;
  }

  private placement(form: URLSearchParams) {
    const to = number(form, 'To');
    const from = number(form, 'From');
    const url = this.platformUrl(form, 'Url', true)!;
    const statusCallback = this.platformUrl(form, 'StatusCallback', false);
    const limit = form.get('TimeLimit');
    const timeLimitSecs = limit && /^\d{1,6}$/.test(limit) && Number(limit) > 0 ? Number(limit) : null;
    return { to, from, url, statusCallback, timeLimitSecs };
  }

  private inbound(form: URLSearchParams) {
    return { from: number(form, 'From'), to: number(form, 'To'), url: this.platformUrl(form, 'Url', true)! };
  }

  private message(form: URLSearchParams) {
    return {
      to: number(form, 'To'),
      from: number(form, 'From'),
      body: messageBody(form),
      statusCallback: this.platformUrl(form, 'StatusCallback', false),
    };
  }

  private inboundMessage(form: URLSearchParams) {
    return {
      from: number(form, 'From'),
      to: number(form, 'To'),
      body: messageBody(form),
      url: this.platformUrl(form, 'Url', true)!,
    };
  }

  /** A URL this carrier will call: only under the platform's own callback base, never anywhere else. */
  private platformUrl(form: URLSearchParams, field: string, required: boolean): string | null {
    const value = form.get(field);
    if (!value) {
      if (required) throw new CarrierRefusal(400, 21205, `${field} is required`);
      return null;
    }
    if (value.length > 2000 || !isUnder(value, this.config.callbackBase)) {
      throw new CarrierRefusal(400, 21205, `${field} is not a URL of the platform this carrier serves`);
    }
    return value;
  }
}

function number(form: URLSearchParams, field: string): string {
  const value = form.get(field) ?? '';
  if (!E164.test(value)) throw new CarrierRefusal(400, 21211, `Invalid '${field}' Phone Number`);
  return value;
}

/** carrier_b's Body: required, at most 1600 characters. */
function messageBody(form: URLSearchParams): string {
  const body = form.get('Body') ?? '';
  if (!body) throw new CarrierRefusal(400, 21602, 'Message body is required');
  if (body.length > 1600)
    throw new CarrierRefusal(400, 21617, 'The concatenated message body exceeds the 1600 character limit');
  return body;
}

function optionalNumber(query: URLSearchParams, field: string): string | undefined {
  return query.has(field) ? number(query, field) : undefined;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new CarrierRefusal(413, 20413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
