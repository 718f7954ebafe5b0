import type { Request } from 'express';
import { clientAddress } from './client-address';

function req(peer: string, forwardedFor?: string): Request {
  return {
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as Request;
}

describe('clientAddress', () => {
  it('is the TCP peer by default, whatever X-Forwarded-For claims', () => {
    expect(clientAddress(req('::ffff:10.0.0.7', '203.0.113.9'), 0)).toBe('10.0.0.7');
    expect(clientAddress(req('2001:DB8::1'), 0)).toBe('2001:db8:0:0::/64');
  });

  it('reads X-Forwarded-For only as far as the trusted proxies go', () => {
    // client -> proxy 1 (appends the client) -> proxy 2 (appends proxy 1) -> gateway
    const r = req('10.0.0.2', '198.51.100.1, 203.0.113.9, 10.0.0.1');
    expect(clientAddress(r, 1)).toBe('10.0.0.1');
    expect(clientAddress(r, 2)).toBe('203.0.113.9');
    // Entries left of the trusted ones were written by the client itself and are ignored.
    expect(clientAddress(req('10.0.0.1', 'spoofed, 203.0.113.9'), 1)).toBe('203.0.113.9');
  });

  it('counts an IPv6 address as its /64, and an IPv4-mapped one as IPv4', () => {
    const same = [
      '2001:db8:1:2:3:4:5:6',
      '2001:0DB8:1:2::9',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2::1.2.3.4',
    ];
    for (const a of same) expect(clientAddress(req(a), 0)).toBe('2001:db8:1:2::/64');
    expect(clientAddress(req('2001:db8:1:3::1'), 0)).toBe('2001:db8:1:3::/64');
    expect(clientAddress(req('::1'), 0)).toBe('0:0:0:0::/64');
    expect(clientAddress(req('fe80::1%eth0'), 0)).toBe('fe80:0:0:0::/64');
    expect(clientAddress(req('::ffff:203.0.113.9'), 0)).toBe('203.0.113.9');
    expect(clientAddress(req('10.0.0.1', '2001:db8:1:2::77'), 1)).toBe('2001:db8:1:2::/64');
  });

  it('falls back to the peer when the header is missing, short or not an address', () => {
    expect(clientAddress(req('10.0.0.1'), 1)).toBe('10.0.0.1');
    expect(clientAddress(req('10.0.0.1', '203.0.113.9'), 3)).toBe('203.0.113.9');
    expect(clientAddress(req('10.0.0.1', 'not-an-ip'), 1)).toBe('10.0.0.1');
    expect(clientAddress(req('10.0.0.1', '203.0.113.9:4711'), 1)).toBe('203.0.113.9');
    expect(clientAddress(req('10.0.0.1', '[2001:db8::5]:4711'), 1)).toBe('2001:db8:0:0::/64');
  });
});
