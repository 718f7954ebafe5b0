import { AppError, ErrorCode } from '@vap/contracts';
import { CarrierACredentials, CredentialsStore } from '../telephony/credentials-store.service';
import { CallbackUrls } from './callback-urls';
import { CallbackRequest } from './carrier-adapter';
import { CarrierHttp, CarrierRequest } from './carrier-http';
import { CARRIER_A_MARKUP } from './carrier-a/carrier-a.adapter';
import { FormCallbackCarrier } from './form-callback-carrier';
import { FormParams } from './signing/form-params';

/** A carrier whose signature is the header `x-sig: ok`; it exposes the base's helpers. */
class TestCarrier extends FormCallbackCarrier<CarrierACredentials> {
  readonly provider = 'carrier_a' as const;
  protected readonly markup = CARRIER_A_MARKUP;
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
  check = (request: CallbackRequest) => this.verified(request, 'conn-1');
  call = (req: Parameters<FormCallbackCarrier<CarrierACredentials>['send']>[1]) =>
    this.send({ auth_id: 'AID', auth_token: 'tok' }, req);
  placed = (status: number, body: unknown) => this.placedId({ status, body }, 'request_uuid');
  succeed = (status: number) => this.expectSuccess({ status, body: 'nope' });
  answer = (intro: string | null) => this.answerReply(intro);
}

function setup(
  opened: Promise<CarrierACredentials> = Promise.resolve({ auth_id: 'AID', auth_token: 'tok' }),
) {
  const sent: CarrierRequest[] = [];
  const http = {
    baseUrl: () => 'https://carrier.test',
    send: async (_provider: string, req: CarrierRequest) => {
      sent.push(req);
      return { status: 200, body: null };
    },
  } as unknown as CarrierHttp;
  const credentials = { open: jest.fn(() => opened) } as unknown as CredentialsStore;
  const urls = { signedUrlOf: (path: string) => `https://cb.test${path}` } as unknown as CallbackUrls;
  return { carrier: new TestCarrier(http, credentials, urls), sent };
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

  it('accepts 2xx only', () => {
    const { carrier } = setup();
    expect(() => carrier.succeed(204)).not.toThrow();
    expect(() => carrier.succeed(300)).toThrow(/HTTP 300/);
    expect(() => carrier.succeed(404)).toThrow(/HTTP 404/);
  });

  it('greets in the carrier dialect', () => {
    const { carrier } = setup();
    expect(carrier.answer('Hi').body).toContain('<Response><Speak>Hi</Speak></Response>');
    expect(carrier.inboundReply({ action: 'REJECT' } as never, null).body).toContain('<Hangup');
  });
});
