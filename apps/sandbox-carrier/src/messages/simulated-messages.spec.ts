import { createHmac } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { CalleeVoice } from '@vap/carrier-sim';
import { SimulatedCalls } from '../calls/simulated-calls';
import { SandboxCarrierConfig } from '../config/sandbox-carrier.config';
import { CarrierApi } from '../http/carrier-api';
import { SimulatedMessages } from './simulated-messages';

const SID = 'ACplatform';
const TOKEN = 'the-platforms-sandbox-auth-token-32-chars';

interface Delivery {
  path: string;
  form: Record<string, string>;
  signed: boolean;
}

const silentVoice: CalleeVoice = { speak: async () => new Int16Array(0), prepare: async () => undefined };

describe('the sandbox carrier’s messages (carrier_b Messages.json)', () => {
  const deliveries: Delivery[] = [];
  let platform: Server;
  let platformBase = '';
  let server: Server;
  let apiBase = '';
  let messages: SimulatedMessages;
  let calls: SimulatedCalls;
  let inboundStatus = 200;

  beforeAll(async () => {
    // The platform's side: records each callback and checks carrier_b's signature (written out here).
    platform = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        const data = Object.keys(form)
          .sort()
          .reduce((acc, k) => acc + k + form[k], `${platformBase}${req.url}`);
        const expected = createHmac('sha1', TOKEN).update(data).digest('base64');
        deliveries.push({
          path: req.url ?? '',
          form,
          signed: req.headers['x-twilio-signature'] === expected,
        });
        const status = req.url?.endsWith('/sms') ? inboundStatus : 200;
        res.writeHead(status, { 'content-type': 'application/xml' }).end('<Response></Response>');
      });
    });
    await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
    platformBase = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
    const config = Object.assign(new SandboxCarrierConfig(), {
      SANDBOX_ACCOUNT_SID: SID,
      SANDBOX_AUTH_TOKEN: TOKEN,
      CALLBACK_BASE_URL: `${platformBase}/callbacks`,
      MEDIA_PUBLIC_URL: 'http://127.0.0.1:9/media',
      SANDBOX_STEP_MS: 5,
    });
    calls = new SimulatedCalls(config, silentVoice, () => undefined);
    messages = new SimulatedMessages(config, () => undefined);
    const api = new CarrierApi(config, calls, () => true, undefined, messages);
    server = createServer((req, res) => void api.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await messages.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => platform.close(() => resolve()));
  });

  beforeEach(() => {
    deliveries.length = 0;
    inboundStatus = 200;
  });

  const post = (resource: string, form: Record<string, string>, token = TOKEN) =>
    fetch(`${apiBase}/2010-04-01/Accounts/${SID}/${resource}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${SID}:${token}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    });

  const statusesOf = async (sid: string, count: number) => {
    for (let i = 0; i < 300; i++) {
      const mine = deliveries.filter((d) => d.form.MessageSid === sid);
      if (mine.length >= count) return mine;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`fewer than ${count} status callbacks for ${sid}`);
  };

  it('answers the Message resource and reports it sent, then delivered, signed', async () => {
    const res = await post('Messages.json', {
      To: '+15550004242',
      From: '+15550000001',
      Body: 'Hello',
      StatusCallback: `${platformBase}/callbacks/messages/sandbox/msg_1/status`,
    });
    expect(res.status).toBe(201);
    const resource = (await res.json()) as Record<string, unknown>;
    expect(resource).toMatchObject({
      sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
      account_sid: SID,
      to: '+15550004242',
      from: '+15550000001',
      body: 'Hello',
      status: 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      api_version: '2010-04-01',
    });
    const reports = await statusesOf(resource.sid as string, 2);
    expect(reports.map((d) => d.form.MessageStatus)).toEqual(['sent', 'delivered']);
    expect(reports.every((d) => d.signed && d.path === '/callbacks/messages/sandbox/msg_1/status')).toBe(
      true,
    );
  });

  it('reports a recipient ending in 13 undelivered with ErrorCode 30003', async () => {
    const res = await post('Messages.json', {
      To: '+15550000013',
      From: '+15550000001',
      Body: 'Hello',
      StatusCallback: `${platformBase}/callbacks/messages/sandbox/msg_2/status`,
    });
    const { sid } = (await res.json()) as { sid: string };
    const reports = await statusesOf(sid, 2);
    expect(reports[1].form).toMatchObject({ MessageStatus: 'undelivered', ErrorCode: '30003' });
  });

  it.each([
    ['no Body', { To: '+15550004242', From: '+15550000001' }, 21602],
    [
      'a Body over 1600 characters',
      { To: '+15550004242', From: '+15550000001', Body: 'x'.repeat(1601) },
      21617,
    ],
    ['a To that is not E.164', { To: '5550004242', From: '+15550000001', Body: 'Hi' }, 21211],
    [
      'a StatusCallback outside the platform',
      { To: '+15550004242', From: '+15550000001', Body: 'Hi', StatusCallback: 'http://elsewhere.example/x' },
      21205,
    ],
  ])('refuses %s with 400, like carrier_b', async (_label, form, code) => {
    const res = await post('Messages.json', form);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(code);
  });

  it('refuses a wrong token with 401', async () => {
    const res = await post(
      'Messages.json',
      { To: '+15550004242', From: '+1555', Body: 'Hi' },
      'x'.repeat(TOKEN.length),
    );
    expect(res.status).toBe(401);
  });

  it('delivers a simulated inbound SMS to the platform’s messaging URL, signed, and answers its sid', async () => {
    const url = `${platformBase}/callbacks/inbound/sandbox/conn-1/sms`;
    const res = await post('SimulatedInboundMessages.json', {
      From: '+918012345678',
      To: '+15550000001',
      Body: 'YES',
      Url: url,
    });
    expect(res.status).toBe(201);
    const { sid } = (await res.json()) as { sid: string };
    const [delivery] = deliveries.filter((d) => d.path === '/callbacks/inbound/sandbox/conn-1/sms');
    expect(delivery.signed).toBe(true);
    expect(delivery.form).toMatchObject({
      MessageSid: sid,
      AccountSid: SID,
      From: '+918012345678',
      To: '+15550000001',
      Body: 'YES',
    });
  });

  it('answers 502 when the platform does not take the inbound SMS', async () => {
    inboundStatus = 404;
    const res = await post('SimulatedInboundMessages.json', {
      From: '+918012345678',
      To: '+15550000001',
      Body: 'YES',
      Url: `${platformBase}/callbacks/inbound/sandbox/conn-1/sms`,
    });
    expect(res.status).toBe(502);
  });
});
