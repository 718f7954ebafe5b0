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
  return isIP(a) ? a.toLowerCase() : null;
}

/**
 * The address per-client limits count against. By default the TCP peer: X-Forwarded-For is written by
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
