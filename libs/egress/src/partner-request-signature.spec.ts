import { createHmac } from 'node:crypto';
import { partnerRequestSignature } from './partner-request-signature';

describe('partnerRequestSignature', () => {
  it('is v1= and the hex HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the secret', () => {
    const body = '{"call":{"id":"call_1"}}';
    const expected = createHmac('sha256', 'whsec_test').update(`1700000000000.${body}`).digest('hex');
    expect(partnerRequestSignature('whsec_test', '1700000000000', body)).toBe(`v1=${expected}`);
  });

  it('changes with the secret, the timestamp and the body', () => {
    const base = partnerRequestSignature('s', '1', 'b');
    expect(partnerRequestSignature('t', '1', 'b')).not.toBe(base);
    expect(partnerRequestSignature('s', '2', 'b')).not.toBe(base);
    expect(partnerRequestSignature('s', '1', 'c')).not.toBe(base);
  });
});
