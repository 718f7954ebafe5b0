import { clientAuthenticated, parseTokenResponse, TokenRequestError } from './oauth-client';
import type { OAuth2Settings } from './entities/connector.entity';

const settings: OAuth2Settings = {
  authorize_url: 'https://auth.example.com/authorize',
  token_url: 'https://auth.example.com/token',
  revocation_url: null,
  scopes: [],
  client_id: 'my client',
  token_auth_method: 'client_secret_basic',
  authorize_params: {},
};

describe('token endpoint requests (RFC 6749 §2.3.1, §5)', () => {
  it('authenticates with HTTP Basic by default, id and secret form-urlencoded first', () => {
    const { body, headers } = clientAuthenticated({ settings, clientSecret: 's3cr:t' }, { grant_type: 'x' });
    expect(headers.authorization).toBe(`Basic ${Buffer.from('my+client:s3cr%3At').toString('base64')}`);
    expect(new URLSearchParams(body).has('client_secret')).toBe(false);
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('puts the secret in the body for client_secret_post, and only the id for a public client', () => {
    const post = clientAuthenticated(
      { settings: { ...settings, token_auth_method: 'client_secret_post' }, clientSecret: 'abc' },
      { grant_type: 'refresh_token', refresh_token: 'r1' },
    );
    expect(post.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(post.body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'r1',
      client_id: 'my client',
      client_secret: 'abc',
    });
    const pub = clientAuthenticated({ settings, clientSecret: null }, { grant_type: 'authorization_code' });
    expect(pub.headers.authorization).toBeUndefined();
    expect(new URLSearchParams(pub.body).get('client_id')).toBe('my client');
    expect(new URLSearchParams(pub.body).has('client_secret')).toBe(false);
  });

  it('reads a bearer token response', () => {
    expect(
      parseTokenResponse(
        200,
        '{"access_token":"a","token_type":"bearer","expires_in":3600,"refresh_token":"r","scope":"x y"}',
      ),
    ).toEqual({ accessToken: 'a', refreshToken: 'r', expiresIn: 3600, scopes: ['x', 'y'] });
    expect(parseTokenResponse(200, '{"access_token":"a","token_type":"Bearer"}')).toEqual({
      accessToken: 'a',
      refreshToken: null,
      expiresIn: null,
      scopes: null,
    });
  });

  it('names the error of a refused request, and refuses what is not a bearer token response', () => {
    const refused = () => parseTokenResponse(400, '{"error":"invalid_grant"}');
    expect(refused).toThrow(TokenRequestError);
    expect(refused).toThrow('HTTP 400 invalid_grant');
    try {
      refused();
    } catch (err) {
      expect((err as TokenRequestError).error).toBe('invalid_grant');
    }
    expect(() => parseTokenResponse(502, '<html>')).toThrow('without JSON');
    expect(() => parseTokenResponse(200, '{"access_token":"a","token_type":"mac"}')).toThrow('Bearer');
    expect(() => parseTokenResponse(200, '{"token_type":"bearer"}')).toThrow('access_token');
  });
});
