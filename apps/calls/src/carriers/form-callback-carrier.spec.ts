import { AppError, ErrorCode } from '@vap/messages';
import { verifyStreamToken } from '@vap/media';
import { mediaStreamTokenKey } from '@vap/secrets';
import { CallsConfig } from '../config/calls.config';
import { TelephonyConfig } from '../config/telephony.config';
import { MediaStreamLinks } from './media-stream-links';
import { CarrierACredentials, CredentialsStore } from '../telephony/connections/credentials-store.service';
import { CallbackUrls } from './callback-urls';
import { CallbackRequest, PlacementUnknown } from './carrier-adapter';
import { CarrierHttp, CarrierRequest, CarrierResponse, CarrierUnanswered } from './carrier-http';
import { CARRIER_A_MARKUP } from './carrier-a/carrier-a.adapter';
import { FormCallbackCarrier } from './form-callback-carrier';
import { FormParams } from './signing/form-params';

/** A carrier whose signature is the header `x-sig: ok`; it exposes the base's helpers. */
class TestCarrier extends FormCallbackCarrier<CarrierACredentials> {
  readonly provider = 'carrier_a' as const;
  protected readonly markup = CARRIER_A_MARKUP;
  protected readonly accountResource = '/';
  seen: { url: string; params: FormParams } | null = null;

  protected accountPath(creds: CarrierACredentials) {
    return `/acct/${creds.auth_id}`;
  }
  protected basicOf(creds: CarrierACredentials) {
    return { user: creds.auth_id, password: creds.auth_token };
  }
  protected signatureMatches(request: CallbackRequest, url: string, params: FormParams) {
    this.seen = { url, params };
    return request.headers['x-sig'] === 'ok';
  }
  protected upgradeSignatureMatches(url: string, headers: Record<string, string>) {
    this.seen = { url, params: new Map() };
    return headers['x-sig'] === 'ok';
  }
  check = (request: CallbackRequest) => this.verified(request, 'conn-1');
  call = (req: Parameters<FormCallbackCarrier<CarrierACredentials>['send']>[1]) =>
    this.send({ auth_id: 'AID', auth_token: 'tok' }, req);
  placed = (status: number, body: unknown) => this.placedId({ status, body }, 'request_uuid');
  placeCall = () =>
    this.place({ auth_id: 'AID', auth_token: 'tok' }, { method: 'POST', path: '/Call/' }, 'request_uuid');
  succeed = (status: number) => this.expectSuccess({ status, body: 'nope' });
  answer = (callId: string) => this.answerReply(callId);
}

function setup(
  opened: Promise<CarrierACredentials> = Promise.resolve({ auth_id: 'AID', auth_token: 'tok' }),
  answer: () => Promise<CarrierResponse> = async () => ({ status: 200, body: null }),
) {
  const sent: CarrierRequest[] = [];
  const http = {
    baseUrl: () => 'https://carrier.test',
    send: async (_provider: string, req: CarrierRequest) => {
      sent.push(req);
      return answer();
    },
  } as unknown as CarrierHttp;
  const credentials = { open: jest.fn(() => opened) } as unknown as CredentialsStore;
  const urls = { signedUrlOf: (path: string) => `https://cb.test${path}` } as unknown as CallbackUrls;
  const links = new MediaStreamLinks(
    { MEDIA_PUBLIC_URL: 'https://media.test/voice', MEDIA_STREAM_TOKEN_TTL_MS: 60_000 } as CallsConfig,
    { SECRETS_KEY: SECRETS_KEY.toString('hex') } as TelephonyConfig,
  );
  return { carrier: new TestCarrier(http, credentials, urls, links), sent };
}

const SECRETS_KEY = Buffer.alloc(32, 9);

/** The stream URL inside an answer, with its token read back as the voice service would. */
function streamOf(body: string) {
  const url = /wss:\/\/[^<"]+/.exec(body)?.[0] ?? '';
  const token = new URL(url.replace(/&amp;/g, '&')).searchParams.get('token') ?? '';
  return { url, verified: verifyStreamToken(token, mediaStreamTokenKey(SECRETS_KEY), Date.now()) };
}

const request = (over: Partial<CallbackRequest>): CallbackRequest => ({
  provider: 'carrier_a',
  method: 'POST',
  url: 'http://internal/callbacks/carrier_a/c/answer',
  path: '/callbacks/carrier_a/c/answer?x=1',
  headers: { 'x-sig': 'ok' },
  rawBody: Buffer.from('CallStatus=ringing&A=1&A=2'),
  params: { callId: 'c', event: 'answer' },
  ...over,
});

const forbidden = (p: Promise<unknown>) =>
  expect(p).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN } satisfies Partial<AppError>);

describe('FormCallbackCarrier', () => {
  it('returns the posted parameters once the signature over the handed-out URL matches', async () => {
    const { carrier } = setup();
    const params = await carrier.check(request({}));
    expect([...params]).toEqual([
      ['CallStatus', ['ringing']],
      ['A', ['1', '2']],
    ]);
    expect(carrier.seen?.url).toBe('https://cb.test/callbacks/carrier_a/c/answer?x=1');
  });

  it('reads no body from a GET callback', async () => {
    const { carrier } = setup();
    expect((await carrier.check(request({ method: 'GET' }))).size).toBe(0);
  });

  it('is 403 when the signature does not match', async () => {
    await forbidden(setup().carrier.check(request({ headers: { 'x-sig': 'bad' } })));
  });

  it('is 403 when the connection credentials do not open', async () => {
    await forbidden(setup(Promise.reject(new Error('sealed elsewhere'))).carrier.check(request({})));
  });

  it('sends account requests under the account URL with Basic credentials', async () => {
    const { carrier, sent } = setup();
    await carrier.call({ method: 'DELETE', path: '/Call/x/' });
    expect(sent).toEqual([
      {
        method: 'DELETE',
        url: 'https://carrier.test/acct/AID/Call/x/',
        basic: { user: 'AID', password: 'tok' },
      },
    ]);
  });

  it('takes a placement id only from a 2xx answer that has one', () => {
    const { carrier } = setup();
    expect(carrier.placed(201, { request_uuid: 'r-1' })).toBe('r-1');
    expect(() => carrier.placed(500, { request_uuid: 'r-1' })).toThrow(AppError);
    expect(() => carrier.placed(200, { request_uuid: '' })).toThrow(AppError);
    expect(() => carrier.placed(200, 'text')).toThrow(AppError);
  });

  describe('placing a call', () => {
    const placing = (answer: () => Promise<CarrierResponse>) => setup(undefined, answer).carrier.placeCall();
    const unanswered = (code: string) =>
      Object.assign(new Error(`socket: ${code}`), { code }) as Error & { code: string };

    it('reads the placement id of a 2xx answer', async () => {
      await expect(placing(async () => ({ status: 201, body: { request_uuid: 'r-1' } }))).resolves.toBe(
        'r-1',
      );
    });

    it.each([
      ['a timeout after the request went out', 'UND_ERR_HEADERS_TIMEOUT'],
      ['a connection closed after the request went out', 'UND_ERR_SOCKET'],
      ['a reset connection', 'ECONNRESET'],
    ])('leaves the outcome unknown on %s', async (_what, code) => {
      const err = placing(async () => {
        throw new CarrierUnanswered('carrier_a', unanswered(code));
      });
      await expect(err).rejects.toBeInstanceOf(PlacementUnknown);
      await expect(err).rejects.toMatchObject({ status: 502, code: ErrorCode.INTERNAL_ERROR });
    });

    it.each([
      ['a server error', 500],
      ['an unavailable carrier', 503],
    ])('leaves the outcome unknown on %s', async (_what, status) => {
      await expect(placing(async () => ({ status, body: { error: 'oops' } }))).rejects.toBeInstanceOf(
        PlacementUnknown,
      );
    });

    it('leaves the outcome unknown on a success without an id', async () => {
      await expect(
        placing(async () => ({ status: 201, body: { message: 'call fired' } })),
      ).rejects.toBeInstanceOf(PlacementUnknown);
    });

    it.each([400, 401, 404, 429])('takes a %s as a refusal', async (status) => {
      const err = placing(async () => ({ status, body: { error: 'refused' } }));
      await expect(err).rejects.toMatchObject({
        status: 502,
        message: expect.stringContaining(`HTTP ${status}`),
      });
      await expect(err).rejects.not.toBeInstanceOf(PlacementUnknown);
    });

    it('takes a request that never reached the carrier as a refusal', async () => {
      const err = placing(async () => {
        throw new CarrierUnanswered('carrier_a', unanswered('ECONNREFUSED'));
      });
      await expect(err).rejects.toBeInstanceOf(CarrierUnanswered);
      await expect(err).rejects.not.toBeInstanceOf(PlacementUnknown);
    });
  });

  it('accepts 2xx only', () => {
    const { carrier } = setup();
    expect(() => carrier.succeed(204)).not.toThrow();
    expect(() => carrier.succeed(300)).toThrow(/HTTP 300/);
    expect(() => carrier.succeed(404)).toThrow(/HTTP 404/);
  });

  it("answers with the call's media stream on MEDIA_PUBLIC_URL, with a token bound to the call", () => {
    const { carrier } = setup();
    const body = carrier.answer('call-7').body;
    expect(body).toMatch(/<Response><Stream bidirectional="true" keepCallAlive="true"[^>]*>wss:/);
    const { url, verified } = streamOf(body);
    expect(url).toMatch(/^wss:\/\/media\.test\/voice\/media\/carrier_a\/call-7\?token=/);
    expect(verified).toMatchObject({ ok: true, claims: { callId: 'call-7' } });
    // Every answer gets its own single-use token.
    expect(streamOf(carrier.answer('call-7').body).url).not.toBe(url);
  });

  it('streams inbound calls an agent answers, and keeps reject and transfer markup', () => {
    const { carrier } = setup();
    for (const action of ['ANSWER_WITH_AI', 'SELECT_AGENT']) {
      const body = carrier.inboundReply({ action, call_id: 'call-9' } as never).body;
      expect(streamOf(body).verified).toMatchObject({ ok: true, claims: { callId: 'call-9' } });
    }
    expect(carrier.inboundReply({ action: 'REJECT' } as never).body).toContain('<Hangup');
    expect(
      carrier.inboundReply({ action: 'TRANSFER', transfer_to_number: '+15550001111' } as never).body,
    ).toContain('<Dial><Number>+15550001111</Number></Dial>');
  });

  it("checks a stream upgrade's signature with the call's credentials", async () => {
    const call = { id: 'c', partnerId: 'p', connectionId: 'conn-1', providerCallId: 'x' };
    const { carrier } = setup();
    expect(await carrier.verifyStreamUpgrade(call, 'wss://m/x', { 'x-sig': 'ok' })).toBe(true);
    expect(carrier.seen?.url).toBe('wss://m/x');
    expect(await carrier.verifyStreamUpgrade(call, 'wss://m/x', { 'x-sig': 'no' })).toBe(false);
    const sealed = setup(Promise.reject(new Error('sealed elsewhere'))).carrier;
    expect(await sealed.verifyStreamUpgrade(call, 'wss://m/x', { 'x-sig': 'ok' })).toBe(false);
  });
});

describe('FormCallbackCarrier connection health', () => {
  it('names the connection and the operation of REST calls made with its credentials', async () => {
    const { carrier, sent } = setup();
    await carrier.fetchAccount('3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11');
    expect(sent).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: 'https://carrier.test/acct/AID/',
        health: { connectionId: '3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11', operation: 'GET account' },
      }),
    ]);
  });

  it('names no connection for credentials it did not open for one', async () => {
    const { carrier, sent } = setup();
    await carrier.call({ method: 'POST', path: '/Call/' });
    expect(sent[0].health).toBeUndefined();
  });
});
