import { formFromRecord } from '../signing/form-params';
import { carrierBSignature, urlVariants, verifyCarrierBSignature } from './carrier-b-signature';

// The carrier's published test vector (carriers.md).
const TOKEN = '12345';
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = formFromRecord({
  CallSid: 'CA1234567890ABCDE',
  Caller: '+12349013030',
  Digits: '1234',
  From: '+12349013030',
  To: '+18005551212',
});
const EXPECTED = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';

describe('carrier_b callback signature', () => {
  it('matches the published test vector', () => {
    expect(carrierBSignature(TOKEN, URL_, PARAMS)).toBe(EXPECTED);
    expect(verifyCarrierBSignature(TOKEN, URL_, PARAMS, EXPECTED)).toBe(true);
  });

  it('does not depend on the order parameters arrive in', () => {
    const reordered = new Map([...PARAMS].reverse());
    expect(carrierBSignature(TOKEN, URL_, reordered)).toBe(EXPECTED);
  });

  it('accepts the URL with or without an explicit default port', () => {
    expect(
      verifyCarrierBSignature(TOKEN, 'https://mycompany.com:443/myapp.php?foo=1&bar=2', PARAMS, EXPECTED),
    ).toBe(true);
    const signedWithPort = carrierBSignature(
      TOKEN,
      'https://mycompany.com:443/myapp.php?foo=1&bar=2',
      PARAMS,
    );
    expect(verifyCarrierBSignature(TOKEN, URL_, PARAMS, signedWithPort)).toBe(true);
    expect(urlVariants('http://h.example/cb')).toEqual(['http://h.example/cb', 'http://h.example:80/cb']);
    expect(urlVariants('http://h.example:8080/cb')).toEqual(['http://h.example:8080/cb']);
  });

  it.each([
    [
      'a changed parameter',
      URL_,
      formFromRecord({ ...Object.fromEntries([...PARAMS].map(([k, v]) => [k, v[0]])), Digits: '1235' }),
      EXPECTED,
    ],
    ['an added parameter', URL_, new Map([...PARAMS, ['CallStatus', ['completed']]]), EXPECTED],
    ['another URL', 'https://mycompany.com/myapp.php?foo=1&bar=3', PARAMS, EXPECTED],
    ['another token', URL_, PARAMS, carrierBSignature('54321', URL_, PARAMS)],
    ['a truncated signature', URL_, PARAMS, EXPECTED.slice(0, -2)],
    ['no signature', URL_, PARAMS, undefined],
    ['an empty signature', URL_, PARAMS, ''],
  ])('rejects %s', (_label, url, params, signature) => {
    expect(verifyCarrierBSignature(TOKEN, url, params, signature)).toBe(false);
  });
});
