import { createHmac } from 'node:crypto';
import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { CalleeVoice } from '@vap/carrier-sim';
import { SimulatedCalls } from '../calls/simulated-calls';
import { SandboxCarrierConfig } from '../config/sandbox-carrier.config';
import { CarrierApi } from './carrier-api';
import { CarrierMetrics } from './metrics';

const SID = 'ACplatform';
const TOKEN = 'the-platforms-sandbox-auth-token-32-chars';

interface Delivery {
  path: string;
  form: Record<string, string>;
  /** The signature checks out for the URL the platform handed out (carrier_b's scheme, written out here). */
  signed: boolean;
}

/** The platform's side: callbacks and answer URLs under one base; records what arrives, checks signatures. */
class FakePlatform {
  readonly deliveries: Delivery[] = [];
  answer = '<Response><Hangup/></Response>';
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        const url = `${this.base}${req.url}`;
        const data = Object.keys(form)
          .sort()
          .reduce((acc, k) => acc + k + form[k], url);
        const expected = createHmac('sha1', TOKEN).update(data).digest('base64');
        this.deliveries.push({
          path: req.url ?? '',
          form,
          signed: req.headers['x-twilio-signature'] === expected,
        });
        if (req.url?.startsWith('/callbacks/answer')) {
          res.writeHead(200, { 'content-type': 'text/xml' }).end(this.answer);
        } else {
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  statuses(): string[] {
    return this.deliveries
      .filter((d) => d.path.startsWith('/callbacks/status'))
      .map((d) => d.form.CallStatus);
  }

  async final(sid: string): Promise<Record<string, string>> {
    const finals = ['completed', 'busy', 'failed', 'no-answer', 'canceled'];
    for (let i = 0; i < 200; i++) {
      const d = this.deliveries.find((x) => x.form.CallSid === sid && finals.includes(x.form.CallStatus));
      if (d) return d.form;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no final callback for ${sid}`);
  }
}

const silentVoice: CalleeVoice = {
  speak: async () => new Int16Array(0),
  prepare: async () => undefined,
};

interface Reply {
  status: number;
  body: string;
  json: Record<string, unknown>;
}

describe('CarrierApi (carrier_b REST API of the sandbox carrier)', () => {
  const platform = new FakePlatform();
  const foreign = new FakePlatform();
  let server: Server;
  let calls: SimulatedCalls;
  let apiBase: string;

  function configOf(overrides: Partial<SandboxCarrierConfig> = {}): SandboxCarrierConfig {
    return Object.assign(new SandboxCarrierConfig(), {
      SANDBOX_ACCOUNT_SID: SID,
      SANDBOX_AUTH_TOKEN: TOKEN,
      CALLBACK_BASE_URL: `${platform.base}/callbacks`,
      MEDIA_PUBLIC_URL: 'http://127.0.0.1:9/media',
      SANDBOX_STEP_MS: 5,
      SANDBOX_MAX_LIVE_CALLS: 3,
      ...overrides,
    });
  }

  beforeAll(async () => {
    await platform.start();
    await foreign.start();
    const config = configOf();
    calls = new SimulatedCalls(config, silentVoice, () => undefined);
    const api = new CarrierApi(config, calls, () => true, new CarrierMetrics(() => calls.liveCount));
    server = createServer((req, res) => void api.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await calls.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await platform.stop();
    await foreign.stop();
  });
  beforeEach(() => {
    platform.deliveries.length = 0;
    foreign.deliveries.length = 0;
  });

  const basic = (sid = SID, token = TOKEN) => `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;

  /** A raw HTTP request (fetch would refuse some of the bad shapes tried here). */
  function send(
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = { authorization: basic() },
  ): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = request(`${apiBase}${path}`, { method, headers }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => {
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: the test says so
          }
          resolve({ status: res.statusCode ?? 0, body: text, json });
        });
      });
      req.on('error', reject);
      if (body !== undefined) {
        req.setHeader('content-type', 'application/x-www-form-urlencoded');
        req.end(body);
      } else {
        req.end();
      }
    });
  }

  const callsPath = `/2010-04-01/Accounts/${SID}/Calls.json`;
  const placement = (to: string, extra: Record<string, string> = {}) =>
    new URLSearchParams({
      To: to,
      From: '+14155550100',
      Url: `${platform.base}/callbacks/answer`,
      StatusCallback: `${platform.base}/callbacks/status`,
      ...extra,
    }).toString();

  async function waitIdle(): Promise<void> {
    for (let i = 0; i < 300 && calls.liveCount > 0; i++) await new Promise((r) => setTimeout(r, 10));
  }
  afterEach(waitIdle);

  describe('authentication', () => {
    it.each([
      ['no Authorization header', {}],
      ['a wrong token', { authorization: basic(SID, 'x'.repeat(TOKEN.length)) }],
      ['another account', { authorization: basic('ACother', TOKEN) }],
      ['a Bearer token', { authorization: `Bearer ${TOKEN}` }],
      ['a malformed Basic header', { authorization: 'Basic %%%' }],
    ])('refuses %s with 401, like carrier_b', async (_label, headers) => {
      const reply = await send('POST', callsPath, placement('+919876543210'), headers);
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual({ code: 20003, message: 'Authenticate', status: 401 });
      expect(calls.liveCount).toBe(0);
    });

    it("refuses the right credentials on another account's path", async () => {
      const reply = await send('GET', '/2010-04-01/Accounts/ACother/Calls/CA' + '0'.repeat(32) + '.json');
      expect(reply.status).toBe(401);
    });

    it('serves health without credentials, and nothing else outside the API', async () => {
      expect((await send('GET', '/health/live', undefined, {})).json).toEqual({ status: 'ok' });
      expect((await send('GET', '/health/ready', undefined, {})).status).toBe(200);
      expect((await send('GET', '/metrics', undefined, {})).body).toMatch(/sandbox_carrier_live_calls/);
      expect((await send('GET', '/', undefined, {})).status).toBe(404);
    });
  });

  describe('placing and reading calls', () => {
    it("answers a placement with carrier_b's Call resource, then reads it back", async () => {
      const placed = await send('POST', callsPath, placement('+919876500001'));
      expect(placed.status).toBe(201);
      expect(placed.json).toEqual({
        sid: expect.stringMatching(/^CA[0-9a-f]{32}$/),
        account_sid: SID,
        to: '+919876500001',
        from: '+14155550100',
        status: 'queued',
        direction: 'outbound-api',
        duration: null,
        date_created: expect.stringMatching(/\+0000$/),
        start_time: null,
        end_time: null,
        answered_by: null,
      });
      const sid = placed.json.sid as string;
      await platform.final(sid);
      const read = await send('GET', `/2010-04-01/Accounts/${SID}/Calls/${sid}.json`);
      expect(read.status).toBe(200);
      expect(read.json).toMatchObject({ sid, status: 'no-answer', duration: '0' });
      expect(read.json.end_time).toEqual(expect.any(String));
    });

    it("lists the calls it knows as carrier_b's call list, filtered by To and From, newest first", async () => {
      const first = await send('POST', callsPath, placement('+919876500011'));
      const second = await send('POST', callsPath, placement('+919876500011'));
      await send('POST', callsPath, placement('+919876500012'));
      const listed = await send('GET', `${callsPath}?To=%2B919876500011&From=%2B14155550100&PageSize=10`);
      expect(listed.status).toBe(200);
      const sids = (listed.json.calls as { sid: string }[]).map((c) => c.sid);
      expect(new Set(sids)).toEqual(new Set([first.json.sid, second.json.sid]));
      expect(listed.json.calls).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            to: '+919876500011',
            direction: 'outbound-api',
            date_created: expect.any(String),
          }),
        ]),
      );
      const one = await send('GET', `${callsPath}?To=%2B919876500011&PageSize=1`);
      expect(one.json.calls).toHaveLength(1);
      expect((await send('GET', `${callsPath}?To=%2B10000000000`)).json.calls).toEqual([]);
      expect((await send('GET', `${callsPath}?To=nonsense`)).status).toBe(400);
    });

    it('answers 404 for a call it has no record of', async () => {
      const reply = await send('GET', `/2010-04-01/Accounts/${SID}/Calls/CA${'a'.repeat(32)}.json`);
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ code: 20404, status: 404 });
    });

    it.each([
      ['01', ['initiated', 'ringing', 'no-answer'], { HangupCause: 'NO_ANSWER' }],
      ['02', ['initiated', 'busy'], { HangupCause: 'USER_BUSY', HangupSource: 'callee' }],
      [
        '03',
        ['initiated', 'failed'],
        {
          HangupCause: 'NETWORK_OUT_OF_ORDER',
          HangupSource: 'carrier',
          ErrorMessage: 'The carrier could not connect the call',
        },
      ],
    ])('a callee number ending %s: signed callbacks %j', async (suffix, statuses, fields) => {
      const placed = await send('POST', callsPath, placement(`+9198765000${suffix}`));
      const final = await platform.final(placed.json.sid as string);
      expect(final).toMatchObject({
        ...fields,
        CallDuration: '0',
        AccountSid: SID,
        Direction: 'outbound-api',
      });
      expect(platform.statuses()).toEqual(statuses);
      expect(platform.deliveries.every((d) => d.signed)).toBe(true);
      expect(platform.deliveries.map((d) => Number(d.form.SequenceNumber))).toEqual(
        statuses.map((_, i) => i),
      );
    });

    it('an answered call fetches the answer URL, signed, and ends when the markup opens no stream; AnsweredBy says who answered', async () => {
      // A person, and a machine (a callee number ending 04), at once: each call waits a second before it ends.
      const [person, machine] = await Promise.all(
        ['+919876543210', '+919876500004'].map(async (to) => {
          const placed = await send('POST', callsPath, placement(to));
          const sid = placed.json.sid as string;
          const final = await platform.final(sid);
          return { sid, final, of: platform.deliveries.filter((d) => d.form.CallSid === sid) };
        }),
      );
      for (const [call, answeredBy] of [
        [person, 'human'],
        [machine, 'machine_start'],
      ] as const) {
        expect(call.final.CallStatus).toBe('completed');
        const answer = call.of.find((d) => d.path === '/callbacks/answer');
        expect(answer).toMatchObject({ signed: true, form: { CallStatus: 'in-progress' } });
        expect(
          call.of.filter((d) => d.path.startsWith('/callbacks/status')).map((d) => d.form.CallStatus),
        ).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
        const answered = call.of.find(
          (d) => d.form.CallStatus === 'in-progress' && d.path !== '/callbacks/answer',
        );
        expect(answered?.form.AnsweredBy).toBe(answeredBy);
      }
    });

    it('a hang-up while ringing cancels the call', async () => {
      const placed = await send('POST', callsPath, placement('+919876500001'));
      const sid = placed.json.sid as string;
      const hungUp = await send('POST', `/2010-04-01/Accounts/${SID}/Calls/${sid}.json`, 'Status=completed');
      expect(hungUp.status).toBe(200);
      expect((await platform.final(sid)).CallStatus).toBe('canceled');
    });

    it('refuses a transfer of a call nobody answered, and an update without Status or Twiml', async () => {
      const placed = await send('POST', callsPath, placement('+919876500001'));
      const path = `/2010-04-01/Accounts/${SID}/Calls/${placed.json.sid}.json`;
      const transfer = await send(
        'POST',
        path,
        'Twiml=' + encodeURIComponent('<Response><Dial>+15550001111</Dial></Response>'),
      );
      expect(transfer.status).toBe(400);
      expect((await send('POST', path, 'Foo=bar')).json).toMatchObject({ code: 20001, status: 400 });
      expect((await send('POST', path, 'Twiml=%3CSay%3Ehi%3C%2FSay%3E')).json).toMatchObject({ code: 21220 });
      await send('POST', path, 'Status=canceled');
    });
  });

  describe('bounds', () => {
    it('refuses a placement beyond SANDBOX_MAX_LIVE_CALLS with 429, and takes calls again once they end', async () => {
      const placed: string[] = [];
      for (let i = 0; i < 3; i++) {
        const reply = await send('POST', callsPath, placement('+919876500001'));
        expect(reply.status).toBe(201);
        placed.push(reply.json.sid as string);
      }
      const refused = await send('POST', callsPath, placement('+919876500001'));
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ code: 20429, status: 429 });
      expect(refused.json.message).toMatch(/SANDBOX_MAX_LIVE_CALLS/);
      await Promise.all(placed.map((sid) => platform.final(sid)));
      await waitIdle();
      expect((await send('POST', callsPath, placement('+919876500002'))).status).toBe(201);
    });

    it('refuses a body over 64 KiB with 413', async () => {
      const reply = await send(
        'POST',
        callsPath,
        `${placement('+919876500001')}&Pad=${'x'.repeat(70 * 1024)}`,
      );
      expect(reply.status).toBe(413);
      expect(reply.json).toMatchObject({ code: 20413, status: 413 });
      expect(calls.liveCount).toBe(0);
    });
  });

  describe('it only calls the platform it serves', () => {
    it.each([
      ['Url on another host', { Url: 'http://169.254.169.254/latest/meta-data' }],
      ['StatusCallback on another host', { StatusCallback: 'http://example.com/callbacks/status' }],
      ['Url outside the callback path', { Url: 'PLATFORM/admin/v1/partners' }],
      ['Url on a look-alike prefix', { Url: 'PLATFORM/callbacks-evil/answer' }],
      ['Url of another port on the same host', { Url: 'FOREIGN/callbacks/answer' }],
      ['a non-http Url', { Url: 'file:///etc/passwd' }],
      ['an over-long Url', { Url: `PLATFORM/callbacks/answer?${'a'.repeat(2100)}` }],
      ['no Url', { Url: '' }],
    ])('refuses %s with 400 and calls nothing', async (_label, fields) => {
      const resolved = Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [
          k,
          v.replace('PLATFORM', platform.base).replace('FOREIGN', foreign.base),
        ]),
      );
      const reply = await send('POST', callsPath, placement('+919876543210', resolved));
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code: 21205, status: 400 });
      await new Promise((r) => setTimeout(r, 50));
      expect(foreign.deliveries).toEqual([]);
      expect(platform.deliveries).toEqual([]);
      expect(calls.liveCount).toBe(0);
    });
  });

  describe('bad input of any shape', () => {
    const sid = `CA${'b'.repeat(32)}`;
    it.each<[string, string, string, string | Buffer | undefined]>([
      ['a To that is no number', 'POST', callsPath, 'To=hello&From=%2B14155550100'],
      ['no fields at all', 'POST', callsPath, ''],
      ['an invalid percent-encoding', 'POST', callsPath, 'To=%E0%A4%A&From=%ZZ&Url=%'],
      ['binary garbage', 'POST', callsPath, Buffer.from([0xff, 0xfe, 0x00, 0x3d, 0x26, 0x80])],
      ['a JSON body', 'POST', callsPath, '{"To":"+919876543210"}'],
      ['repeated fields', 'POST', callsPath, 'To=1&To=2&To=3&From=&From='],
      ['an unknown resource', 'GET', `/2010-04-01/Accounts/${SID}/Queues.json`, undefined],
      ['a malformed call sid', 'GET', `/2010-04-01/Accounts/${SID}/Calls/CA..%2F..json`, undefined],
      ['DELETE of a call', 'DELETE', `/2010-04-01/Accounts/${SID}/Calls/${sid}.json`, undefined],
      ['PUT of Calls', 'PUT', callsPath, 'To=+1'],
      ['a path with encoded nonsense', 'GET', '/2010-04-01/Accounts/%00%ff/../Calls.json', undefined],
      [
        'an inbound call to a bad number',
        'POST',
        `/2010-04-01/Accounts/${SID}/SimulatedInboundCalls.json`,
        'To=x',
      ],
    ])('%s: a 4xx carrier_b error, never a 500 or a stack', async (_label, method, path, body) => {
      const reply = await send(method, path, body);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(reply.json).toEqual({
        code: expect.any(Number),
        message: expect.any(String),
        status: reply.status,
      });
      expect(reply.body).not.toMatch(/\bat .+\.(js|ts):\d+/);
    });
  });
});
