import { MASKED_HEADER_VALUE, maskedHeaders, outcomeOfStatus } from './integration-log';

describe('maskedHeaders', () => {
  it('lower-cases names and masks credentials, cookies, signatures and secret-looking names', () => {
    expect(
      maskedHeaders({
        'Content-Type': 'application/json',
        'X-Vap-Timestamp': '1764190000000',
        'X-Vap-Signature': 'v1=abc',
        Authorization: 'Bearer sk_live_1',
        'Proxy-Authorization': 'Basic x',
        Cookie: 'session=1',
        'X-Api-Key': 'k',
        'X-Partner-Token': 't',
        'X-Client-Secret': 's',
        'User-Agent': 'VoiceAgentPlatform',
      }),
    ).toEqual({
      'content-type': 'application/json',
      'x-vap-timestamp': '1764190000000',
      'x-vap-signature': MASKED_HEADER_VALUE,
      authorization: MASKED_HEADER_VALUE,
      'proxy-authorization': MASKED_HEADER_VALUE,
      cookie: MASKED_HEADER_VALUE,
      'x-api-key': MASKED_HEADER_VALUE,
      'x-partner-token': MASKED_HEADER_VALUE,
      'x-client-secret': MASKED_HEADER_VALUE,
      'user-agent': 'VoiceAgentPlatform',
    });
  });

  it('masks the extra names it is given, whatever their case (a partner’s static headers)', () => {
    expect(maskedHeaders({ 'X-Tenant': 'acme', 'X-Region': 'eu' }, ['x-TENANT'])).toEqual({
      'x-tenant': MASKED_HEADER_VALUE,
      'x-region': 'eu',
    });
  });
});

describe('outcomeOfStatus', () => {
  it.each([
    [200, 'success'],
    [204, 'success'],
    [299, 'success'],
    [199, 'http_error'],
    [301, 'http_error'],
    [404, 'http_error'],
    [503, 'http_error'],
  ])('%i is %s', (status, outcome) => expect(outcomeOfStatus(status)).toBe(outcome));
});
