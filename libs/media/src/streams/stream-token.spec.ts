import { createHmac, timingSafeEqual } from 'node:crypto';
import { InMemoryReplayGuard, admitStreamToken, issueStreamToken, verifyStreamToken } from './stream-token';

// Passes through to the real function; lets a spec see that signatures are compared in constant time.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual('node:crypto');
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

const KEY = 'k'.repeat(32);
const OTHER_KEY = Buffer.alloc(32, 7);
const NOW = 1_800_000_000_000;

function issue(callId = 'call_1', ttlMs = 60_000) {
  return issueStreamToken({ callId, ttlMs, now: NOW }, KEY);
}

describe('issueStreamToken / verifyStreamToken', () => {
  it('issues a compact url-safe token that verifies to its call', () => {
    const token = issue();
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(token)).toBe(token);
    const verified = verifyStreamToken(token, KEY, NOW + 1000);
    expect(verified).toEqual({
      ok: true,
      claims: { callId: 'call_1', exp: NOW + 60_000, nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) },
    });
  });

  it('gives every token its own nonce', () => {
    const nonces = new Set(
      Array.from({ length: 20 }, () => {
        const verified = verifyStreamToken(issue(), KEY, NOW);
        return verified.ok ? verified.claims.nonce : '';
      }),
    );
    expect(nonces.size).toBe(20);
  });

  it('expires at exp', () => {
    const token = issue('call_1', 5000);
    expect(verifyStreamToken(token, KEY, NOW + 4999).ok).toBe(true);
    // Its claims are authentic still: they say whose token lapsed.
    expect(verifyStreamToken(token, KEY, NOW + 5000)).toEqual({
      ok: false,
      reason: 'expired',
      claims: { callId: 'call_1', exp: NOW + 5000, nonce: expect.any(String) },
    });
  });

  it('compares signatures in constant time', () => {
    jest.mocked(timingSafeEqual).mockClear();
    verifyStreamToken(issue(), KEY, NOW);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
  });

  it('refuses a token signed with another key', () => {
    const token = issueStreamToken({ callId: 'call_1', ttlMs: 60_000, now: NOW }, OTHER_KEY);
    expect(verifyStreamToken(token, KEY, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a token whose claims were changed', () => {
    const [, signature] = issue('call_1').split('.');
    const [forgedBody] = issue('call_2').split('.');
    expect(verifyStreamToken(`${forgedBody}.${signature}`, KEY, NOW)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('refuses a bare HMAC of the claims, so signatures made for other uses of the key never pass', () => {
    const [body] = issue().split('.');
    const bare = createHmac('sha256', KEY).update(body).digest('base64url');
    expect(verifyStreamToken(`${body}.${bare}`, KEY, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it.each([
    ['', 'empty'],
    ['abc', 'one part'],
    ['a.b.c', 'three parts'],
    ['a+b.cd', 'not base64url'],
    [
      `${Buffer.from('{}').toString('base64url')}.${Buffer.alloc(31).toString('base64url')}`,
      'short signature',
    ],
  ])('refuses %j as malformed (%s)', (token) => {
    expect(verifyStreamToken(token, KEY, NOW)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['not json', 'x'],
    ['claims not an object', 7],
    ['empty call id', { callId: '', exp: NOW + 1000, nonce: 'n' }],
    ['fractional expiry', { callId: 'c', exp: NOW + 0.5, nonce: 'n' }],
    ['missing nonce', { callId: 'c', exp: NOW + 1000 }],
  ])('refuses well-signed but malformed claims (%s)', (_case, claims) => {
    const text = typeof claims === 'string' ? claims : JSON.stringify(claims);
    const body = Buffer.from(text).toString('base64url');
    const signature = createHmac('sha256', KEY)
      .update('vap.media-stream-token.v1.')
      .update(body)
      .digest('base64url');
    expect(verifyStreamToken(`${body}.${signature}`, KEY, NOW)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses short keys and bad inputs at issue time', () => {
    expect(() => issueStreamToken({ callId: 'c', ttlMs: 1000, now: NOW }, 'short')).toThrow(RangeError);
    expect(() => verifyStreamToken(issue(), 'short', NOW)).toThrow(RangeError);
    expect(() => issueStreamToken({ callId: '', ttlMs: 1000, now: NOW }, KEY)).toThrow(RangeError);
    expect(() => issueStreamToken({ callId: 'c', ttlMs: 0, now: NOW }, KEY)).toThrow(RangeError);
  });
});

describe('InMemoryReplayGuard', () => {
  it('lets a nonce through once', async () => {
    const guard = new InMemoryReplayGuard();
    expect(await guard.claim('n1', NOW + 1000, NOW)).toBe(true);
    expect(await guard.claim('n1', NOW + 1000, NOW + 10)).toBe(false);
    expect(await guard.claim('n2', NOW + 1000, NOW + 10)).toBe(true);
  });

  it('forgets nonces once their tokens have expired', async () => {
    const guard = new InMemoryReplayGuard();
    await guard.claim('n1', NOW + 1000, NOW);
    await guard.claim('n2', NOW + 5000, NOW);
    expect(guard.size).toBe(2);
    await guard.claim('n3', NOW + 9000, NOW + 1000);
    expect(guard.size).toBe(2);
    expect(await guard.claim('n2', NOW + 5000, NOW + 2000)).toBe(false);
  });
});

describe('admitStreamToken', () => {
  it('admits a fresh token once and refuses its replay', async () => {
    const guard = new InMemoryReplayGuard();
    const token = issue('call_9');
    expect(await admitStreamToken(token, KEY, NOW, guard)).toEqual({ ok: true, callId: 'call_9' });
    expect(await admitStreamToken(token, KEY, NOW + 1, guard)).toEqual({ ok: false, reason: 'replayed' });
  });

  it('refuses unknown and expired tokens before touching the guard', async () => {
    const guard = new InMemoryReplayGuard();
    expect(await admitStreamToken('garbage', KEY, NOW, guard)).toEqual({ ok: false, reason: 'malformed' });
    expect(await admitStreamToken(issue('c', 10), KEY, NOW + 10, guard)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(guard.size).toBe(0);
  });
});
