import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The only range an outbound request may reach: global unicast. Loopback, RFC 1918, link-local (cloud
 * metadata lives at 169.254.169.254), carrier-grade NAT, multicast, unspecified, reserved and documentation
 * ranges, IPv6 unique-local and the IPv6 transition ranges that embed an IPv4 address are all refused.
 */
const ALLOWED_RANGE = 'unicast';

/** The range name ipaddr.js gives the address (e.g. `loopback`, `private`), or null when it is no IP. */
export function addressRange(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return null;
  let parsed = ipaddr.parse(bare);
  // ::ffff:127.0.0.1 reaches 127.0.0.1: judge the IPv4 address it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range();
}

/** True for an IP literal outside global unicast; false for a public address. Throws for a non-IP. */
export function isPrivateAddress(address: string): boolean {
  const range = addressRange(address);
  if (range === null) throw new TypeError(`not an IP address: ${address}`);
  return range !== ALLOWED_RANGE;
}
