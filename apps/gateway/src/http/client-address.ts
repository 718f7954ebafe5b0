import { isIP } from 'node:net';
import type { Request } from 'express';

function normalised(address: string | undefined): string | null {
  if (!address) return null;
  let a = address.trim();
  // "1.2.3.4:5678" and "[::1]:5678", as some proxies write them.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  if (a.toLowerCase().startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7);
  const kind = isIP(a);
  if (kind === 4) return a;
  return kind === 6 ? prefix64(a.toLowerCase()) : null;
}

/**
 * The /64 an IPv6 address belongs to, as `2001:db8:0:7::/64`: one subscriber, one LAN, is handed a whole /64,
 * so its addresses are one client to the per-address limits (else each of its 2^64 addresses would be one).
 */
function prefix64(address: string): string {
  const zone = address.indexOf('%');
  const bare = zone >= 0 ? address.slice(0, zone) : address;
  const split = bare.indexOf('::');
  const groupsOf = (part: string) => (part ? part.split(':') : []);
  // An embedded IPv4 address (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) stands for two groups.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  let groups = groupsOf(bare);
  if (split >= 0) {
    const head = groupsOf(bare.slice(0, split));
    const tail = groupsOf(bare.slice(split + 2));
    groups = [...head, ...Array<string>(8 - width(head) - width(tail)).fill('0'), ...tail];
  }
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The address per-client limits and lockouts count against: an IPv4 address (an IPv4-mapped IPv6 address
 * as IPv4), or an IPv6 address's /64. By default the TCP peer: X-Forwarded-For is written by
 * whoever sends the request, so believing it would let anyone pick a fresh address per request. With
 * `trustedHops` proxies in front (TRUST_PROXY_HOPS), the client is the address the outermost of them
 * appended: the entry that many places from the right of X-Forwarded-For plus the peer.
 */
export function clientAddress(req: Request, trustedHops: number): string {
  const peer = normalised(req.socket?.remoteAddress) ?? 'unknown';
  if (trustedHops <= 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  const client = chain[Math.max(0, chain.length - 1 - trustedHops)];
  return normalised(client) ?? peer;
}
