import { formFromRecord } from '../signing/form-params';
import { carrierAStringToSign, carrierASignature, verifyCarrierASignature } from './carrier-a-signature';

const TOKEN = 'MAAUTHTOKEN0123456789abcdef';
const NONCE = '05429567804466091622';
const HANGUP = 'https://api.example.com/callbacks/carrier_a/hangup/';
const BODY = formFromRecord({
  To: '+919876543210',
  From: '+918012345678',
  CallUUID: 'c8b3a2f4-0f6e-4a37-9a5c-111111111111',
  Direction: 'outbound',
  CallStatus: 'completed',
  Duration: '42',
});

describe('carrier_a callback signature (V3)', () => {
  it('builds the documented string for a POST without query', () => {
    expect(carrierAStringToSign('POST', HANGUP, BODY)).toBe(
      'https://api.example.com/callbacks/carrier_a/hangup/?' +
        'CallStatuscompleted' +
        'CallUUIDc8b3a2f4-0f6e-4a37-9a5c-111111111111' +
        'Directionoutbound' +
        'Duration42' +
        'From+918012345678' +
        'To+919876543210',
    );
  });

  it('sorts the query by key and by value, and joins query and body with a dot', () => {
    const url = 'https://api.example.com:8443/cb/?z=2&a=9&a=1&m=x';
    expect(carrierAStringToSign('POST', url, formFromRecord({ B: '2', A: '1' }))).toBe(
      'https://api.example.com:8443/cb/?a=1&a=9&m=x&z=2.A1B2',
    );
    expect(carrierAStringToSign('POST', url, new Map())).toBe(
      'https://api.example.com:8443/cb/?a=1&a=9&m=x&z=2',
    );
    expect(carrierAStringToSign('GET', url, new Map())).toBe(
      'https://api.example.com:8443/cb/?a=1&a=9&m=x&z=2',
    );
    expect(carrierAStringToSign('GET', 'https://h.example/cb', new Map())).toBe('https://h.example/cb');
    expect(carrierAStringToSign('POST', 'https://h.example/cb', new Map())).toBe('https://h.example/cb');
  });

  // Derived once by following the documented steps (string above + "." + nonce, HMAC-SHA256, base64).
  const VECTOR = 'qwhGq6Wa9hKfPB5c21mVCUE6mHYm6+LK6qsxLBYiaUs=';

  it('matches the derived vector', () => {
    expect(carrierASignature(TOKEN, 'POST', HANGUP, BODY, NONCE)).toBe(VECTOR);
    expect(verifyCarrierASignature(TOKEN, 'POST', HANGUP, BODY, VECTOR, NONCE)).toBe(true);
  });

  it('accepts any one of several comma-separated signatures', () => {
    const other = carrierASignature('old-token', 'POST', HANGUP, BODY, NONCE);
    expect(verifyCarrierASignature(TOKEN, 'POST', HANGUP, BODY, `${other},${VECTOR}`, NONCE)).toBe(true);
    expect(verifyCarrierASignature(TOKEN, 'POST', HANGUP, BODY, `${other}, ${VECTOR}`, NONCE)).toBe(true);
  });

  it.each([
    ['another nonce', HANGUP, BODY, VECTOR, '1'],
    ['a changed status', HANGUP, new Map([...BODY, ['CallStatus', ['busy']]]), VECTOR, NONCE],
    ['another URL', 'https://api.example.com/callbacks/carrier_a/ring/', BODY, VECTOR, NONCE],
    ['a missing nonce', HANGUP, BODY, VECTOR, undefined],
    ['a missing signature', HANGUP, BODY, undefined, NONCE],
    ['only wrong signatures', HANGUP, BODY, 'abc,def', NONCE],
  ])('rejects %s', (_label, url, body, signature, nonce) => {
    expect(verifyCarrierASignature(TOKEN, 'POST', url, body, signature, nonce)).toBe(false);
  });
});
