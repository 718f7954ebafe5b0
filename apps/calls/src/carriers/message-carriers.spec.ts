import { CallbackRequest } from './carrier-adapter';
import { CarrierResponse } from './carrier-http';
import { CarrierAMessages, carrierAMessageStatus } from './carrier-a/carrier-a-messages';
import { CarrierBMessages, carrierBMessageStatus } from './carrier-b/carrier-b-messages';
import { SmsOutcomeUnknown, SmsRefused } from './message-carrier';
import { AccountRequest } from './form-callback-carrier';
import { formFromRecord } from './signing/form-params';

/** A carrier whose account answers `reply` and whose callbacks carry `fields` (the signature is the adapter's). */
function carrierStub(
  provider: 'carrier_a' | 'carrier_b',
  reply: CarrierResponse,
  fields: Record<string, string> = {},
) {
  const sent: { connectionId: string; req: AccountRequest }[] = [];
  const stub = {
    provider,
    sent,
    accountRequest: async (connectionId: string, req: AccountRequest) => {
      sent.push({ connectionId, req });
      return reply;
    },
    verifiedCallback: async () => formFromRecord(fields),
  };
  return stub;
}

const SMS = { from: '+14155550100', to: '+14155550101', body: 'Hi', statusCallbackUrl: 'https://p/cb' };
const request = {} as CallbackRequest;

describe('carrier_b messages', () => {
  it('sends To, From, Body and StatusCallback form-encoded to Messages.json and answers the sid', async () => {
    const stub = carrierStub('carrier_b', { status: 201, body: { sid: 'SM1', status: 'queued' } });
    const messages = new CarrierBMessages(stub as never);
    await expect(messages.send('conn-1', SMS)).resolves.toBe('SM1');
    expect(stub.sent[0].connectionId).toBe('conn-1');
    expect(stub.sent[0].req.path).toBe('/Messages.json');
    expect(Object.fromEntries(stub.sent[0].req.form!)).toEqual({
      To: SMS.to,
      From: SMS.from,
      Body: 'Hi',
      StatusCallback: 'https://p/cb',
    });
  });

  it('reads a 4xx as a refusal with the carrier’s code, a 5xx as an unknown outcome', async () => {
    const refused = new CarrierBMessages(
      carrierStub('carrier_b', {
        status: 400,
        body: { code: 21211, message: "Invalid 'To' Phone Number" },
      }) as never,
    );
    await expect(refused.send('c', SMS)).rejects.toMatchObject({ code: '21211' });
    await expect(refused.send('c', SMS)).rejects.toBeInstanceOf(SmsRefused);
    const unknown = new CarrierBMessages(carrierStub('carrier_b', { status: 503, body: null }) as never);
    await expect(unknown.send('c', SMS)).rejects.toBeInstanceOf(SmsOutcomeUnknown);
    const noSid = new CarrierBMessages(carrierStub('carrier_b', { status: 201, body: {} }) as never);
    await expect(noSid.send('c', SMS)).rejects.toMatchObject({ code: 'carrier_refused' });
  });

  it('reads status callbacks and inbound SMS', async () => {
    const status = new CarrierBMessages(
      carrierStub(
        'carrier_b',
        { status: 200, body: null },
        { MessageSid: 'SM1', MessageStatus: 'undelivered', ErrorCode: '30003' },
      ) as never,
    );
    await expect(status.parseStatus(request, 'c')).resolves.toEqual({
      carrierMessageId: 'SM1',
      status: 'undelivered',
      errorCode: '30003',
    });
    const inbound = new CarrierBMessages(
      carrierStub(
        'carrier_b',
        { status: 200, body: null },
        { MessageSid: 'SM2', From: '+1', To: '+2', Body: 'YES' },
      ) as never,
    );
    await expect(inbound.parseInbound(request, 'c')).resolves.toEqual({
      carrierMessageId: 'SM2',
      from: '+1',
      to: '+2',
      body: 'YES',
    });
    const bare = new CarrierBMessages(
      carrierStub('carrier_b', { status: 200, body: null }, { From: '+1' }) as never,
    );
    await expect(bare.parseInbound(request, 'c')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it.each([
    ['queued', null],
    ['accepted', null],
    ['sending', null],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['read', 'delivered'],
    ['undelivered', 'undelivered'],
    ['failed', 'failed'],
    ['canceled', 'failed'],
  ])('maps MessageStatus %s to %s', (raw, status) => {
    expect(carrierBMessageStatus(raw)).toBe(status);
  });
});

describe('carrier_a messages', () => {
  it('sends src, dst, text, url and method as JSON to Message/ and answers the first message_uuid', async () => {
    const stub = carrierStub('carrier_a', {
      status: 202,
      body: { message: 'message(s) queued', message_uuid: ['u-1'], api_id: 'a' },
    });
    await expect(new CarrierAMessages(stub as never).send('conn-1', SMS)).resolves.toBe('u-1');
    expect(stub.sent[0].req).toMatchObject({
      method: 'POST',
      path: '/Message/',
      json: { src: SMS.from, dst: SMS.to, text: 'Hi', url: 'https://p/cb', method: 'POST' },
    });
  });

  it('reads ErrorCode 000 as none and adds the plus to inbound numbers', async () => {
    const status = new CarrierAMessages(
      carrierStub(
        'carrier_a',
        { status: 200, body: null },
        { MessageUUID: 'u-1', Status: 'delivered', ErrorCode: '000' },
      ) as never,
    );
    await expect(status.parseStatus(request, 'c')).resolves.toEqual({
      carrierMessageId: 'u-1',
      status: 'delivered',
      errorCode: null,
    });
    const inbound = new CarrierAMessages(
      carrierStub(
        'carrier_a',
        { status: 200, body: null },
        { MessageUUID: 'u-2', From: '918012345678', To: '14155550100', Text: 'Hi' },
      ) as never,
    );
    await expect(inbound.parseInbound(request, 'c')).resolves.toEqual({
      carrierMessageId: 'u-2',
      from: '+918012345678',
      to: '+14155550100',
      body: 'Hi',
    });
  });

  it.each([
    ['queued', null],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['undelivered', 'undelivered'],
    ['failed', 'failed'],
    ['rejected', 'failed'],
  ])('maps Status %s to %s', (raw, status) => {
    expect(carrierAMessageStatus(raw)).toBe(status);
  });
});
