import { codeChallengeS256, isTokenShaped, randomToken, tokenHash } from './pkce';

describe('PKCE and link tokens', () => {
  it('derives the S256 challenge of RFC 7636 appendix B', () => {
    // The verifier and challenge printed in RFC 7636, Appendix B.
    expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes 43-character base64url tokens (a valid code_verifier length) and hashes them', () => {
    const token = randomToken();
    expect(isTokenShaped(token)).toBe(true);
    expect(token).not.toBe(randomToken());
    expect(tokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(isTokenShaped('short')).toBe(false);
    expect(isTokenShaped(`${token}/`)).toBe(false);
  });
});
