import { classifyAddress, isAddressAllowed, type AddressKind } from '../../functions/core/net/address-policy';

// [address, kind, why]
const TABLE: Array<[string, AddressKind, string]> = [
  // public IPv4
  ['8.8.8.8', 'public', 'global unicast'],
  ['93.184.216.34', 'public', 'global unicast'],
  ['1.1.1.1', 'public', 'global unicast'],
  ['172.32.0.1', 'public', 'just above 172.16/12'],
  ['100.63.255.255', 'public', 'just below CGNAT'],
  ['100.128.0.0', 'public', 'just above CGNAT'],
  ['169.253.255.255', 'public', 'just below link-local'],
  // private network (allowed only with allowPrivateNetwork)
  ['127.0.0.1', 'private-network', 'loopback'],
  ['127.255.255.254', 'private-network', 'loopback /8'],
  ['10.0.0.1', 'private-network', 'RFC 1918'],
  ['10.255.255.255', 'private-network', 'RFC 1918'],
  ['172.16.0.1', 'private-network', 'RFC 1918'],
  ['172.31.255.255', 'private-network', 'RFC 1918'],
  ['192.168.1.1', 'private-network', 'RFC 1918'],
  ['100.64.0.1', 'private-network', 'CGNAT'],
  ['::1', 'private-network', 'IPv6 loopback'],
  ['fc00::1', 'private-network', 'unique-local'],
  ['fd12:3456:789a::1', 'private-network', 'unique-local'],
  ['::ffff:127.0.0.1', 'private-network', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'private-network', 'IPv4-mapped loopback, hex form'],
  ['::ffff:10.0.0.1', 'private-network', 'IPv4-mapped private'],
  // always forbidden
  ['0.0.0.0', 'forbidden', 'unspecified'],
  ['0.1.2.3', 'forbidden', '0/8'],
  ['::', 'forbidden', 'IPv6 unspecified'],
  ['169.254.169.254', 'forbidden', 'metadata (link-local)'],
  ['169.254.0.1', 'forbidden', 'link-local'],
  ['fe80::1', 'forbidden', 'IPv6 link-local'],
  ['febf:ffff::1', 'forbidden', 'IPv6 link-local upper edge'],
  ['fd00:ec2::254', 'forbidden', 'AWS IMDS IPv6'],
  ['fd00:ec2::253', 'forbidden', 'AWS DNS IPv6'],
  ['100.100.100.200', 'forbidden', 'Alibaba metadata inside CGNAT'],
  ['192.0.0.192', 'forbidden', 'Oracle metadata'],
  ['168.63.129.16', 'forbidden', 'Azure WireServer'],
  ['::ffff:169.254.169.254', 'forbidden', 'IPv4-mapped metadata'],
  ['::ffff:0.0.0.0', 'forbidden', 'IPv4-mapped unspecified'],
  ['224.0.0.1', 'forbidden', 'multicast'],
  ['239.255.255.250', 'forbidden', 'multicast (SSDP)'],
  ['ff02::1', 'forbidden', 'IPv6 multicast'],
  ['255.255.255.255', 'forbidden', 'broadcast'],
  ['240.0.0.1', 'forbidden', 'reserved 240/4'],
  ['192.0.2.1', 'forbidden', 'TEST-NET-1'],
  ['198.51.100.1', 'forbidden', 'TEST-NET-2'],
  ['203.0.113.1', 'forbidden', 'TEST-NET-3'],
  ['198.18.0.1', 'forbidden', 'benchmarking'],
  ['2001:db8::1', 'forbidden', 'IPv6 documentation'],
  ['fec0::1', 'forbidden', 'deprecated site-local'],
  ['100::1', 'forbidden', 'discard prefix'],
  ['::7f00:1', 'forbidden', 'IPv4-compatible (deprecated), outside 2000::/3'],
  ['1234::1', 'forbidden', 'unassigned, outside 2000::/3'],
  ['64:ff9b:1::a00:1', 'forbidden', 'local-use NAT64'],
  // IPv6 forms that embed an IPv4 address are judged by it
  ['2606:4700:4700::1111', 'public', 'global IPv6'],
  ['2a00:1450:4001:80b::200e', 'public', 'global IPv6'],
  ['2002:0808:0808::1', 'public', '6to4 of 8.8.8.8'],
  ['2002:7f00:0001::1', 'forbidden', '6to4 of 127.0.0.1'],
  ['2002:a9fe:a9fe::1', 'forbidden', '6to4 of 169.254.169.254'],
  ['2002:c0a8:0101::1', 'forbidden', '6to4 of 192.168.1.1'],
  ['64:ff9b::808:808', 'public', 'NAT64 of 8.8.8.8'],
  ['64:ff9b::7f00:1', 'forbidden', 'NAT64 of 127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', 'forbidden', 'NAT64 of 169.254.169.254'],
  ['::ffff:0:a00:1', 'forbidden', 'SIIT of 10.0.0.1'],
  ['2001:0:0808:0808:0:0:f7f7:f7f7', 'public', 'Teredo, server 8.8.8.8, client 8.8.8.8'],
  ['2001:0:0808:0808:0:0:80ff:fffe', 'forbidden', 'Teredo, client 127.0.0.1'],
  ['2001:0:7f00:0001:0:0:f7f7:f7f7', 'forbidden', 'Teredo, server 127.0.0.1'],
  // not canonical IP addresses at all
  ['127.1', 'forbidden', 'shorthand is never passed in: refuse'],
  ['localhost', 'forbidden', 'not an IP'],
  ['', 'forbidden', 'empty'],
];

describe('classifyAddress', () => {
  it.each(TABLE)('%s is %s (%s)', (address, kind) => {
    expect(classifyAddress(address).kind).toBe(kind);
  });

  it('names the range, for error messages', () => {
    expect(classifyAddress('127.0.0.1').range).toBe('loopback');
    expect(classifyAddress('169.254.169.254').range).toBe('linkLocal');
    expect(classifyAddress('fd00:ec2::254').range).toBe('cloud metadata');
    expect(classifyAddress('2002:7f00:0001::1').range).toBe('6to4 embedding loopback');
  });
});

describe('isAddressAllowed', () => {
  it.each(TABLE)('%s (%s)', (address, kind) => {
    expect(isAddressAllowed(address, false)).toBe(kind === 'public');
    expect(isAddressAllowed(address, true)).toBe(kind !== 'forbidden');
  });
});
