import { redactUrl } from './redact-url';

describe('redactUrl', () => {
  it('hides the tokens of one-time links and signed upload URLs in the path', () => {
    expect(redactUrl('/console/invitations/inv_s3cret')).toBe('/console/invitations/[redacted]');
    expect(redactUrl('/console/api/password-resets/pr_s3cret/')).toBe(
      '/console/api/password-resets/[redacted]/',
    );
    expect(redactUrl('/api/v2/uploads/eyJhbGciOi.s3cret?x=1')).toBe('/api/v2/uploads/[redacted]?x=1');
    expect(redactUrl('/console/api/v2/UPLOADS/abc')).toBe('/console/api/v2/UPLOADS/[redacted]');
  });

  it('hides credential-named query parameters, whatever their case or escaping', () => {
    expect(redactUrl('/x?token=abc&page=2')).toBe('/x?token=[redacted]&page=2');
    expect(redactUrl('/x?a=1&Access_Token=abc')).toBe('/x?a=1&Access_Token=[redacted]');
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/media/carrier_a/c1?token=abc.def')).toBe('/media/carrier_a/c1?token=[redacted]');
  });

  it('hides connect-link tokens and the OAuth callback code and state, and only those on that route', () => {
    expect(redactUrl('/connect/AbC-123_xyz')).toBe('/connect/[redacted]');
    expect(redactUrl('/CONNECT/AbC-123_xyz?x=1')).toBe('/CONNECT/[redacted]?x=1');
    expect(redactUrl('/connect/oauth/callback?state=s3cret&code=c0de&scope=a')).toBe(
      '/connect/oauth/callback?state=[redacted]&code=[redacted]&scope=a',
    );
    expect(redactUrl('/connect/oauth/callback/?Co%64e=c0de&error=access_denied')).toBe(
      '/connect/oauth/callback/?Co%64e=[redacted]&error=access_denied',
    );
    expect(redactUrl('/api/v2/calls?state=open&code=x')).toBe('/api/v2/calls?state=open&code=x');
  });

  it('leaves everything else as sent', () => {
    expect(redactUrl('/api/v2/calls?status=completed&limit=5')).toBe(
      '/api/v2/calls?status=completed&limit=5',
    );
    expect(redactUrl('/console/api/team/invitations')).toBe('/console/api/team/invitations');
    expect(redactUrl('/x?token')).toBe('/x?token');
    expect(redactUrl('/x?%E0%A4%A=1')).toBe('/x?%E0%A4%A=1');
  });
});
