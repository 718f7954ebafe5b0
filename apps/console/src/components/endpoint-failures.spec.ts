import { explainFailure } from './endpoint-failures';

describe('explainFailure', () => {
  it.each([
    'connection failed (DEPTH_ZERO_SELF_SIGNED_CERT)',
    'connection failed (SELF_SIGNED_CERT_IN_CHAIN)',
    'connection failed (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    'connection failed (CERT_HAS_EXPIRED)',
  ])('tells an untrusted certificate (%s) to be replaced or tunnelled', (error) => {
    const help = explainFailure(error);
    expect(help?.title).toMatch(/does not trust your endpoint’s certificate/);
    expect(help?.advice).toMatch(/certificate authority/);
    expect(help?.advice).toMatch(/ngrok or cloudflared/);
  });

  it('names which certificate problem it is', () => {
    expect(explainFailure('connection failed (CERT_HAS_EXPIRED)')?.title).toMatch(/has expired/);
    expect(explainFailure('connection failed (DEPTH_ZERO_SELF_SIGNED_CERT)')?.title).toMatch(/self-signed/);
  });

  it.each([
    'refusing to connect: the target is not allowed (not a public address)',
    'could not connect: the address did not resolve to a public server that accepted the connection',
  ])('tells a refused or private address (%s) to use a public address or a tunnel', (error) => {
    const help = explainFailure(error);
    expect(help?.title).toMatch(/did not connect/);
    expect(help?.advice).toMatch(/tunnel/);
  });

  it('leaves other errors as they read', () => {
    expect(explainFailure(null)).toBeNull();
    expect(explainFailure('the request timed out after 10000 ms')).toBeNull();
    expect(explainFailure('HTTP 500')).toBeNull();
  });
});
