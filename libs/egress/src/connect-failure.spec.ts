import { connectionFailureMessage, isConnectFailure } from './connect-failure';
import { PrivateNetworkError } from './private-network-guard';
import { FetchTimeoutError, ResponseTooLargeError, UnsupportedUrlError } from './public-http-client';

describe('what a partner reads of a failed outbound request', () => {
  const coded = (code: string, message = `${code} somewhere.internal 10.0.0.7`) =>
    Object.assign(new Error(message), { code });

  it('counts every failure before a connection as one, however deep undici wraps it', () => {
    for (const err of [
      coded('ENOTFOUND'),
      coded('ECONNREFUSED'),
      coded('EHOSTUNREACH'),
      coded('UND_ERR_CONNECT_TIMEOUT'),
      Object.assign(new TypeError('fetch failed'), { cause: coded('EAI_AGAIN') }),
    ])
      expect(isConnectFailure(err)).toBe(true);
    expect(
      isConnectFailure(
        Object.assign(new Error('x'), { cause: new PrivateNetworkError('db.internal', '10.0.0.7') }),
      ),
    ).toBe(true);
  });

  it('does not count failures once connected', () => {
    expect(isConnectFailure(coded('ECONNRESET'))).toBe(false);
    expect(isConnectFailure(new ResponseTooLargeError(65536))).toBe(false);
  });

  it('names a failure once connected by its code only, never the text that can carry internal names', () => {
    expect(connectionFailureMessage(coded('ECONNRESET'))).toBe('connection failed (ECONNRESET)');
    expect(
      connectionFailureMessage(
        Object.assign(new TypeError('fetch failed'), { cause: coded('CERT_HAS_EXPIRED') }),
      ),
    ).toBe('connection failed (CERT_HAS_EXPIRED)');
    expect(connectionFailureMessage(new Error('other side closed'))).toBe(
      'connection failed (connection error)',
    );
  });

  it("says so when the partner's answer was over the size limit, or its URL cannot be fetched", () => {
    expect(connectionFailureMessage(new ResponseTooLargeError(65536))).toBe(
      'response body exceeds 65536 bytes',
    );
    expect(connectionFailureMessage(new UnsupportedUrlError('too many redirects'))).toBe(
      'too many redirects',
    );
  });

  it('counts a timeout while connecting as a failure before a connection, not one waiting for the answer', () => {
    expect(isConnectFailure(new FetchTimeoutError(5000, true))).toBe(true);
    expect(isConnectFailure(new FetchTimeoutError(5000, false))).toBe(false);
  });
});
