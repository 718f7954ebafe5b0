import { sandboxSigningKey, signSandboxCallback, verifySandboxCallback } from './sandbox-signature';

describe('sandbox callback signatures', () => {
  const key = sandboxSigningKey('a'.repeat(32), undefined);
  const url = 'http://127.0.0.1:3000/callbacks/sandbox/c1/status';
  const body = Buffer.from('CallStatus=ringing&SequenceNumber=1');
  const now = 1_800_000_000_000;
  const headers = (sig: string, ts = String(now)) => ({
    'x-sandbox-signature': sig,
    'x-sandbox-timestamp': ts,
  });

  it('accepts its own signature', () => {
    expect(
      verifySandboxCallback(key, headers(signSandboxCallback(key, String(now), url, body)), url, body, now),
    ).toBe(true);
  });

  it('refuses a changed body, URL, key, missing headers or an old timestamp', () => {
    const sig = signSandboxCallback(key, String(now), url, body);
    expect(verifySandboxCallback(key, headers(sig), url, Buffer.from('CallStatus=completed'), now)).toBe(
      false,
    );
    expect(verifySandboxCallback(key, headers(sig), `${url}?x=1`, body, now)).toBe(false);
    expect(
      verifySandboxCallback(sandboxSigningKey('b'.repeat(32), undefined), headers(sig), url, body, now),
    ).toBe(false);
    expect(verifySandboxCallback(key, {}, url, body, now)).toBe(false);
    expect(verifySandboxCallback(key, headers(sig), url, body, now + 6 * 60 * 1000)).toBe(false);
  });

  it('needs a secret: there is no constant fallback', () => {
    expect(() => sandboxSigningKey(undefined, undefined)).toThrow(
      /SANDBOX_CALLBACK_SECRET or SECRETS_KEY is required/,
    );
  });
});
