import { createServer, type Server } from 'node:net';
import { isConnectFailure } from '@vap/egress';
import { checkKeyByRequest, connectionFailureOf, unansweredCheck } from './key-check';

const coded = (code: string) => Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code });

describe('connectionFailureOf', () => {
  it('tells a name that does not resolve, a refused connection and a timeout apart, wrapped or not', () => {
    expect(connectionFailureOf(coded('ENOTFOUND'))).toBe('dns');
    expect(connectionFailureOf(coded('EAI_AGAIN'))).toBe('dns');
    expect(connectionFailureOf(coded('ECONNREFUSED'))).toBe('refused');
    expect(connectionFailureOf(new Error('fetch failed', { cause: coded('ENETUNREACH') }))).toBe('refused');
    expect(connectionFailureOf(coded('UND_ERR_CONNECT_TIMEOUT'))).toBe('timeout');
    expect(connectionFailureOf(new Error('unexpected end of JSON'))).toBeUndefined();
  });

  it('is a connection failure exactly where egress sees one before the connection, or one dropped unanswered', () => {
    for (const code of [
      'ENOTFOUND',
      'ESERVFAIL',
      'EHOSTDOWN',
      'EADDRNOTAVAIL',
      'ETIMEDOUT',
      'ECONNRESET',
      'EPIPE',
    ]) {
      const connection = connectionFailureOf(coded(code));
      expect(connection).toBeDefined();
      expect(isConnectFailure(coded(code))).toBe(!['ECONNRESET', 'EPIPE'].includes(code));
    }
    expect(connectionFailureOf(coded('ECONNRESET'))).toBe('refused');
    expect(connectionFailureOf(coded('ERR_TLS_CERT_ALTNAME_INVALID'))).toBeUndefined();
  });

  it('words an unanswered check without the resolver text', () => {
    expect(unansweredCheck(coded('ENOTFOUND'), false, 1000)).toEqual({
      ok: false,
      reason: 'unreachable',
      message: 'its host name does not resolve from here',
      connection: 'dns',
    });
    expect(unansweredCheck(new Error('aborted'), true, 1000)).toMatchObject({
      message: 'no answer within 1000 ms',
      connection: 'timeout',
    });
  });
});

describe('checkKeyByRequest without an answer', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // A port that was just free: nothing listens on it once the server is closed.
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('says the connection was refused', async () => {
    expect(await checkKeyByRequest(`http://127.0.0.1:${port}/v1/models`, { headers: {} }, 2000)).toEqual({
      ok: false,
      reason: 'unreachable',
      message: 'the connection was refused or could not be routed',
      connection: 'refused',
    });
  });

  it('says the deadline passed when a server accepts and stays silent', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port: silentPort } = silent.address() as { port: number };
      expect(
        await checkKeyByRequest(`http://127.0.0.1:${silentPort}/v1/models`, { headers: {} }, 200),
      ).toEqual({
        ok: false,
        reason: 'unreachable',
        message: 'no answer within 200 ms',
        connection: 'timeout',
      });
    } finally {
      silent.close();
    }
  });
});
