import { randomBytes } from 'node:crypto';
import { BlobUrlSigner } from './blob-url-signer';

describe('BlobUrlSigner', () => {
  const signer = new BlobUrlSigner(randomBytes(32));
  const now = new Date('2030-01-01T00:00:00Z');
  const inAnHour = Math.floor(now.getTime() / 1000) + 3600;
  const grant = {
    method: 'PUT' as const,
    key: 'documents/p1/d1',
    expiresAt: inAnHour,
    contentType: 'application/pdf',
    contentLength: 1234,
  };

  it('verifies what it signed and returns the grant', () => {
    const token = signer.sign(grant);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(signer.verify(token, 'PUT', now)).toEqual({ ok: true, grant: { ...grant, fileName: undefined } });
  });

  it('refuses a token after its expiry, and accepts it up to that second', () => {
    const token = signer.sign(grant);
    expect(signer.verify(token, 'PUT', new Date(inAnHour * 1000))).toMatchObject({ ok: true });
    expect(signer.verify(token, 'PUT', new Date((inAnHour + 1) * 1000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses a token used for another method', () => {
    expect(signer.verify(signer.sign(grant), 'GET', now)).toEqual({ ok: false, reason: 'wrong_method' });
  });

  it('refuses any change to the grant', () => {
    const [, signature] = signer.sign(grant).split('.');
    for (const changed of [
      { ...grant, key: 'documents/p2/d1' },
      { ...grant, expiresAt: inAnHour + 86400 },
      { ...grant, contentLength: 10_000_000 },
      { ...grant, contentType: 'text/html' },
      { ...grant, method: 'GET' },
    ]) {
      const wire = {
        m: changed.method,
        k: changed.key,
        e: changed.expiresAt,
        t: changed.contentType,
        n: changed.contentLength,
      };
      const forged = `${Buffer.from(JSON.stringify(wire)).toString('base64url')}.${signature}`;
      expect(signer.verify(forged, changed.method as 'PUT', now)).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
    }
  });

  it('refuses a token signed with another key', () => {
    const other = new BlobUrlSigner(randomBytes(32));
    expect(signer.verify(other.sign(grant), 'PUT', now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it.each([
    '',
    'abc',
    'a.b.c',
    '!!!.???',
    `${Buffer.from('{"m":"PUT"}').toString('base64url')}.AAAA`,
    'e30.',
  ])('refuses the malformed token %p', (token) => {
    expect(signer.verify(token, 'PUT', now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a truncated signature without throwing', () => {
    const token = signer.sign(grant);
    expect(signer.verify(token.slice(0, -5), 'PUT', now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('needs a key of at least 32 bytes', () => {
    expect(() => new BlobUrlSigner(randomBytes(16))).toThrow(/32 bytes/);
  });
});
