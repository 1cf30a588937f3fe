import { clientIdentity, parseClientAddress, rateLimitKey } from '../../functions/core/net/client-address';

describe('parseClientAddress', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['  203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:54321', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:CB00:7107', '203.0.113.7'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::1', '::1'],
  ])('%s → %s', (raw, canonical) => {
    expect(parseClientAddress(raw)).toBe(canonical);
  });

  test.each([
    [undefined], [null], [''], ['   '], ['unknown'], ['not-an-ip'], ['127.1'], ['0x7f.0.0.1'], ['999.1.1.1'],
    ['203.0.113.7, 10.0.0.1'], ['1.2.3.4/24'], ['2001:db8:::1'],
    [`203.0.113.7${' '.repeat(4096)}x`], ['9'.repeat(4096)],
  ])('%j is not an address', (raw) => {
    expect(parseClientAddress(raw as string)).toBeUndefined();
  });
});

describe('clientIdentity', () => {
  test('an address is kept in canonical form; nothing becomes "unknown"', () => {
    expect(clientIdentity('::ffff:198.51.100.1')).toBe('198.51.100.1');
    expect(clientIdentity(undefined)).toBe('unknown');
    expect(clientIdentity('')).toBe('unknown');
    expect(clientIdentity('unknown')).toBe('unknown');
  });

  test('anything else becomes a fixed-length digest, the same for the same value, idempotent', () => {
    const huge = 'x'.repeat(4096);
    const id = clientIdentity(huge);
    expect(id).toMatch(/^unparsed:[0-9a-f]{32}$/);
    expect(clientIdentity(huge)).toBe(id);
    expect(clientIdentity(id)).toBe(id);
    expect(clientIdentity('junk')).not.toBe(id);
    // Only a bounded prefix is digested: padding a junk value does not make a new identity.
    expect(clientIdentity(`${huge}y`)).toBe(id);
  });
});

describe('rateLimitKey', () => {
  test('IPv4 as is, IPv4-mapped IPv6 as IPv4', () => {
    expect(rateLimitKey('198.51.100.7')).toBe('198.51.100.7');
    expect(rateLimitKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  test('IPv6 by its /64: addresses of one subscriber share a key, other prefixes do not', () => {
    const key = rateLimitKey('2001:db8:aa:bb:1:2:3:4');
    expect(key).toBe('2001:db8:aa:bb::/64');
    expect(rateLimitKey('2001:db8:aa:bb:ffff:ffff:ffff:ffff')).toBe(key);
    expect(rateLimitKey('[2001:db8:aa:bb::9]:8080')).toBe(key);
    expect(rateLimitKey('2001:db8:aa:bc::1')).not.toBe(key);
  });

  test('no input makes a key longer than a few dozen characters', () => {
    const inputs = ['x'.repeat(4096), `203.0.113.7, ${'9'.repeat(4096)}`, 'ffff:'.repeat(1000), '', undefined, 'ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255'];
    for (const input of inputs) expect(rateLimitKey(input).length).toBeLessThanOrEqual(48);
  });
});
