/**
 * POST /api/business applies the one fetch policy (D24) to the store URL: with
 * ALLOW_PRIVATE_NETWORK off (production), no private, loopback, link-local or metadata
 * address is accepted, in any spelling the URL parser normalizes, and nothing is stored.
 */
import { getContainer } from '../../functions/container';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack({ ALLOW_PRIVATE_NETWORK: '0' }); });
afterAll(async () => { await stack.close(); });

const REFUSED = [
  'http://169.254.169.254', 'http://169.254.169.254/latest/meta-data/', 'https://169.254.169.254',
  'http://127.0.0.1', 'http://127.0.0.1:8080', '127.0.0.1', '127.0.0.1:3000', 'http://127.1', 'http://127.0.0.2',
  'http://0x7f000001', 'http://2130706433', 'http://0177.0.0.1', 'http://0x7f.0.0.1', 'http://017700000001',
  'http://localhost', 'http://localhost:8083', 'localhost', 'http://LOCALHOST',
  'http://[::1]', 'http://[::ffff:127.0.0.1]', 'http://[::ffff:7f00:1]', 'http://[::ffff:169.254.169.254]',
  'http://[fd00:ec2::254]', 'http://[fe80::1]', 'http://[fc00::1]', 'http://[::]', 'http://0.0.0.0', 'http://0',
  'http://10.0.0.1', 'http://192.168.1.1', 'http://172.16.0.1', 'http://100.64.0.1', 'http://100.100.100.200',
  'http://[64:ff9b::7f00:1]', 'http://[2002:7f00:1::]', 'http://[2002:a9fe:a9fe::]',
  'http://224.0.0.1', 'http://255.255.255.255', 'http://192.0.0.192',
  'https://shop.example.com:8443', 'http://shop.example.com:22',
];

describe('POST /api/business refuses store URLs the fetch policy refuses', () => {
  test.each(REFUSED)('%s → 400 naming the reason, nothing stored', async (url) => {
    const org = `p${Math.random().toString(36).slice(2, 10)}`;
    const res = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: 'Probe', url } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/not allowed/) });
    expect(await getContainer().businesses.get(org)).toBeNull();
  });

  test('a public address and a name that does not resolve yet are accepted', async () => {
    for (const [org, url] of [['pubip', 'http://93.184.215.14'], ['newdomain', 'https://shop.not-live-yet.example']]) {
      const res = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: 'Shop', url } });
      expect(res.status).toBe(201);
    }
  });
});
