import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The only range an outbound request may reach: global unicast. Loopback, RFC 1918, link-local (cloud
 * metadata lives at 169.254.169.254), carrier-grade NAT, multicast, unspecified, reserved and documentation
 * ranges, IPv6 unique-local and the IPv6 transition ranges that embed an IPv4 address (IPv4-compatible ::/96,
 * NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo, SIIT) are all refused; an IPv4-mapped address
 * (::ffff:a.b.c.d) is judged by the IPv4 address it carries.
 */
const ALLOWED_RANGE = 'unicast';

/** The range name ipaddr.js gives the address (e.g. `loopback`, `private`), or null when it is no IP. */
export function addressRange(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (!family) return null;
  // ipaddr.js reads the dotted tail of ::a.b.c.d as ::ffff:a.b.c.d; the URL parser writes what a socket connects
  // to (::808:808), so IPv6 is judged in that form.
  let parsed = ipaddr.parse(family === 6 ? new URL(`http://[${bare}]`).hostname.slice(1, -1) : bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:127.0.0.1 reaches 127.0.0.1: judge the IPv4 address it carries.
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    // ::127.0.0.1 (IPv4-compatible, ::/96, deprecated by RFC 4291) carries one too and has no public use: its own
    // range, refused whatever it embeds. (:: and ::1 keep their names: unspecified, loopback.)
    else if (v6.parts.slice(0, 6).every((p) => p === 0) && !['unspecified', 'loopback'].includes(v6.range()))
      return 'ipv4Compatible';
  }
  return parsed.range();
}

/**
 * Whether a URL's host may name a public place as written: false for a localhost name or an IP literal outside
 * global unicast; true for a public literal and for any other name (its addresses are checked when it is
 * resolved, at connect time).
 */
export function isPublicHostName(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return false;
  const range = addressRange(name);
  return range === null || range === ALLOWED_RANGE;
}

/** True for an IP literal outside global unicast; false for a public address. Throws for a non-IP. */
export function isPrivateAddress(address: string): boolean {
  const range = addressRange(address);
  if (range === null) throw new TypeError(`not an IP address: ${address}`);
  return range !== ALLOWED_RANGE;
}
