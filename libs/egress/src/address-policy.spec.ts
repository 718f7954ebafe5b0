import { isPublicHostName, addressRange, isPrivateAddress } from './address-policy';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.169.254', 'cloud metadata, link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.5', 'documentation'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'bracketed as in a URL'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fc00::1', 'IPv6 unique-local'],
    ['fd12:3456:789a::1', 'IPv6 unique-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['64:ff9b::a00:1', 'NAT64 embedding a private IPv4'],
    ['2002:7f00:1::', '6to4 embedding loopback'],
    ['2002:a00:1::1', '6to4 embedding a private IPv4'],
    ['2002:808:808::1', '6to4 embedding a public IPv4 (a transition range all the same)'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['[::127.0.0.1]', 'IPv4-compatible loopback, bracketed as in a URL'],
    ['::7f00:1', 'IPv4-compatible loopback, hex form'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['::169.254.169.254', 'IPv4-compatible metadata address'],
    ['::8.8.8.8', 'IPv4-compatible public (deprecated, no public use)'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
    ['::ffff:192.168.0.1', 'IPv4-mapped private'],
    ['64:ff9b::10.0.0.1', 'NAT64 embedding a private IPv4, dotted'],
    ['64:ff9b::127.0.0.1', 'NAT64 embedding loopback'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 embedding a private IPv4'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated (SIIT) private'],
    ['2001::1', 'Teredo'],
  ])('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  it('does not treat host names as addresses', () => {
    expect(addressRange('example.com')).toBeNull();
    expect(addressRange('localhost')).toBeNull();
    expect(addressRange(new URL('https://[::127.0.0.1]/').hostname)).toBe('ipv4Compatible');
    expect(() => isPrivateAddress('localhost')).toThrow(TypeError);
  });

  it('judges a URL host as written: localhost names and private literals are not public, other names are', () => {
    for (const host of ['localhost', 'API.localhost', '10.0.0.7', '[::1]', '[::ffff:127.0.0.1]'])
      expect(isPublicHostName(host)).toBe(false);
    for (const host of ['auth.example.com', '8.8.8.8', '[2606:4700:4700::1111]'])
      expect(isPublicHostName(host)).toBe(true);
  });
});
