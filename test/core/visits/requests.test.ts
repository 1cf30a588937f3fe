import { isCountedRequest, visitorAddress } from '../../../functions/core/visits/requests';

describe('isCountedRequest: successful GETs of documents, not the plumbing', () => {
  it.each([
    [{ method: 'GET', path: '/ai/', status: 200, contentType: 'text/html; charset=utf-8' }, true],
    [{ method: 'GET', path: '/llms.txt', status: 200, contentType: 'text/plain' }, true],
    [{ method: 'GET', path: '/llms/decaf.txt', status: 304 }, true],
    [{ method: 'GET', path: '/data.json', status: 200, contentType: 'application/json' }, true],
    [{ method: 'GET', path: '/pages/about.md', status: 200, contentType: 'text/markdown; charset=utf-8' }, true],
    [{ method: 'GET', path: '/products/mug?variant=1', status: 200, contentType: '-' }, true],
    [{ method: 'GET', path: '/products/mug', status: 200 }, true],
    [{ method: 'HEAD', path: '/ai/', status: 200 }, false],
    [{ method: 'POST', path: '/ai/', status: 200 }, false],
    [{ method: 'GET', path: '/ai/', status: 301 }, false],
    [{ method: 'GET', path: '/ai/missing', status: 404 }, false],
    [{ method: 'GET', path: '/tracking.js', status: 200, contentType: 'text/javascript' }, false],
    [{ method: 'GET', path: '/ai/tracking.js', status: 200 }, false],
    [{ method: 'GET', path: '/robots.txt', status: 200, contentType: 'text/plain' }, false],
    [{ method: 'GET', path: '/sitemap.xml', status: 200 }, false],
    [{ method: 'GET', path: '/sitemap-2.xml', status: 200 }, false],
    [{ method: 'GET', path: '/indexing-key.txt', status: 200 }, false],
    [{ method: 'GET', path: '/favicon.ico', status: 200 }, false],
    [{ method: 'GET', path: '/ai/styles.css', status: 200, contentType: 'text/css' }, false],
    [{ method: 'GET', path: '/cdn/shop/files/mug.jpg', status: 200 }, false],
    [{ method: 'GET', path: '/app.js', status: 200 }, false],
  ])('%j → %s', (request, expected) => {
    expect(isCountedRequest(request)).toBe(expected);
  });
});

describe('visitorAddress', () => {
  it('is the peer unless a proxy hop is expected', () => {
    expect(visitorAddress('198.51.100.4', '203.0.113.9', false)).toBe('198.51.100.4');
    expect(visitorAddress('::ffff:198.51.100.4', null, true)).toBe('198.51.100.4');
  });

  it('behind our proxy: the address the proxy appended last to X-Forwarded-For', () => {
    expect(visitorAddress('130.176.1.1', '10.0.0.1, 203.0.113.9', true)).toBe('203.0.113.9');
    expect(visitorAddress('130.176.1.1', '2001:DB8::1', true)).toBe('2001:db8::1');
  });

  it('a junk X-Forwarded-For falls back to the peer', () => {
    expect(visitorAddress('130.176.1.1', 'not-an-ip', true)).toBe('130.176.1.1');
    expect(visitorAddress('130.176.1.1', '-', true)).toBe('130.176.1.1');
    expect(visitorAddress(undefined, undefined, true)).toBe('unknown');
  });
});
