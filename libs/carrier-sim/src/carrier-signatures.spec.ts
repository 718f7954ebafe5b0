import { createHmac } from 'node:crypto';
import { signCarrierB } from './carrier-signatures';

// carrier_b's published test vector (docs/carriers.md): the platform's verifier is checked against the same.
const TOKEN = '12345';
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = {
  CallSid: 'CA1234567890ABCDE',
  Caller: '+12349013030',
  Digits: '1234',
  From: '+12349013030',
  To: '+18005551212',
};
const EXPECTED = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';

describe('signCarrierB', () => {
  it("matches carrier_b's published example", () => {
    expect(signCarrierB(TOKEN, URL_, PARAMS)).toBe(EXPECTED);
  });

  it('sorts the parameters by name, whatever order they come in', () => {
    const reversed = Object.fromEntries(Object.entries(PARAMS).reverse());
    expect(signCarrierB(TOKEN, URL_, reversed)).toBe(EXPECTED);
  });

  it('covers the URL exactly, every parameter and the token', () => {
    expect(signCarrierB(TOKEN, `${URL_}&baz=3`, PARAMS)).not.toBe(EXPECTED);
    expect(signCarrierB(TOKEN, URL_, { ...PARAMS, Digits: '1235' })).not.toBe(EXPECTED);
    expect(signCarrierB(TOKEN, URL_, { ...PARAMS, Extra: '' })).not.toBe(EXPECTED);
    expect(signCarrierB('54321', URL_, PARAMS)).not.toBe(EXPECTED);
  });

  it('signs a media-stream upgrade (no parameters) over the URL alone', () => {
    const url = 'wss://media.example.com/media/carrier_b/c1?token=t';
    expect(signCarrierB(TOKEN, url, {})).toBe(createHmac('sha1', TOKEN).update(url).digest('base64'));
  });
});
